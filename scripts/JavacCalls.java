// The reference for Java in scripts/lsp-callgraph.py: every call of a project's Java sources,
// bound by the compiler itself (javac's own attribution, the binding jdtls's call hierarchy
// reports: the method a call site names by its static types, not every override it may
// reach at run time).
//
//     java scripts/JavacCalls.java ROOT CLASSPATH OUT.json
//
// Writes {"calls": [...], "errors": N, "external": N}: one call per method invocation,
// `new` and method reference (`Foo::bar`, which the language servers count as calls) whose
// target is declared in ROOT's sources, as {"site": [path, line], "target": [path, line],
// "kind": "method" | "constructor", "via": "call" | "new" | "ref"}. Lines are 1-based, the
// site's is the line of the called name (a chain's later calls sit on their own lines), the
// target's the line of the declaration's name; an implicit constructor (none written) is
// its class's name line. Calls javac makes up (a constructor's implicit `super()`) have no
// source and are left out. Compile errors (a missing test library) do not stop it: javac
// attributes what it can, and calls it cannot bind are counted as external.

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavacCalls {
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        List<File> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !root.relativize(p).toString().startsWith("."))
                    // Sources, not a module: its tests share its packages from outside it.
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .sorted().map(Path::toFile).collect(Collectors.toList());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager fm = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
        List<String> options = List.of("-proc:none", "-implicit:none", "-Xmaxerrs", "1000000",
                "-classpath", args[1]);
        JavacTask task = (JavacTask) compiler.getTask(null, fm, diagnostics, options, null,
                fm.getJavaFileObjectsFromFiles(files));
        Iterable<? extends CompilationUnitTree> units = task.parse();
        task.analyze();
        Trees trees = Trees.instance(task);
        SourcePositions positions = trees.getSourcePositions();
        List<String> calls = new ArrayList<>();
        int[] external = {0};

        for (CompilationUnitTree unit : units) {
            String site = root.relativize(Path.of(unit.getSourceFile().toUri())).toString();
            new TreePathScanner<Void, Void>() {
                @Override
                public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
                    // The called name ends the method select: `a.b(...).c(...)` puts c on its line.
                    long at = positions.getEndPosition(unit, node.getMethodSelect());
                    record(trees.getElement(new TreePath(getCurrentPath(), node.getMethodSelect())), at, "call");
                    return super.visitMethodInvocation(node, v);
                }

                @Override
                public Void visitNewClass(NewClassTree node, Void v) {
                    Element made = trees.getElement(getCurrentPath());
                    if (node.getClassBody() != null) {
                        // An anonymous class calls its superclass's constructor; one of an
                        // interface calls none.
                        Element named = trees.getElement(new TreePath(getCurrentPath(), node.getIdentifier()));
                        made = named != null && named.getKind() == ElementKind.CLASS ? named : null;
                    }
                    record(made, positions.getStartPosition(unit, node), "new");
                    return super.visitNewClass(node, v);
                }

                @Override
                public Void visitMemberReference(MemberReferenceTree node, Void v) {
                    record(trees.getElement(getCurrentPath()), positions.getEndPosition(unit, node), "ref");
                    return super.visitMemberReference(node, v);
                }

                private void record(Element target, long at, String via) {
                    if (at < 0 || positions.getStartPosition(unit, getCurrentPath().getLeaf()) < 0) {
                        return; // made up by javac: no source
                    }
                    if (target == null || !(target.getKind() == ElementKind.METHOD
                            || target.getKind() == ElementKind.CONSTRUCTOR
                            || target.getKind() == ElementKind.CLASS && via.equals("new"))) {
                        external[0]++;
                        return;
                    }
                    long line = unit.getLineMap().getLineNumber(Math.max(0, at - 1));
                    String declared = declaration(trees, positions, root, target);
                    if (declared == null) {
                        external[0]++;
                        return;
                    }
                    calls.add(String.format("{\"site\": [%s, %d], \"target\": %s, \"kind\": \"%s\", \"via\": \"%s\"}",
                            quote(site), line, declared,
                            target.getKind() == ElementKind.METHOD ? "method" : "constructor", via));
                }
            }.scan(unit, null);
        }
        long errors = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR).count();
        diagnostics.getDiagnostics().stream().filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getCode()).collect(Collectors.groupingBy(c -> c, Collectors.counting()))
                .forEach((code, n) -> System.err.printf("  %6d %s%n", n, code));
        String json = "{\"errors\": " + errors + ", \"external\": " + external[0] + ", \"calls\": [\n"
                + String.join(",\n", calls) + "\n]}\n";
        Files.writeString(Path.of(args[2]), json);
        System.err.printf("javac: %d files, %d calls into the project, %d external, %d errors%n",
                files.size(), calls.size(), external[0], errors);
    }

    /** `[path, line]` of the declaration's name, or null when it is not in the project's sources. */
    static String declaration(Trees trees, SourcePositions positions, Path root, Element target) {
        TreePath path = trees.getPath(target);
        if (path == null) {
            return null;
        }
        CompilationUnitTree unit = path.getCompilationUnit();
        Tree leaf = path.getLeaf();
        String name = target.getKind() == ElementKind.CONSTRUCTOR
                ? target.getEnclosingElement().getSimpleName().toString()
                : target.getSimpleName().toString();
        long from = positions.getStartPosition(unit, leaf);
        if (leaf instanceof MethodTree) {
            MethodTree method = (MethodTree) leaf;
            // The name follows the modifiers, type parameters and return type.
            from = Math.max(from, positions.getEndPosition(unit, method.getModifiers()));
            if (method.getReturnType() != null) {
                from = Math.max(from, positions.getEndPosition(unit, method.getReturnType()));
            }
        } else if (leaf instanceof ClassTree) {
            from = Math.max(from, positions.getEndPosition(unit, ((ClassTree) leaf).getModifiers()));
        }
        if (from < 0) {
            // An implicit constructor: javac's tree has no source; its class's name stands for it.
            TreePath owner = trees.getPath(target.getEnclosingElement());
            if (owner == null) {
                return null;
            }
            leaf = owner.getLeaf();
            from = Math.max(positions.getStartPosition(unit, leaf),
                    positions.getEndPosition(unit, ((ClassTree) leaf).getModifiers()));
        }
        String text;
        try {
            text = unit.getSourceFile().getCharContent(true).toString();
        } catch (IOException e) {
            return null;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("\\b" + java.util.regex.Pattern.quote(name) + "\\b").matcher(text);
        long at = m.find((int) Math.max(0, from)) ? m.start() : from;
        String file = root.relativize(Path.of(unit.getSourceFile().toUri())).toString();
        return String.format("[%s, %d]", quote(file), unit.getLineMap().getLineNumber(at));
    }

    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
