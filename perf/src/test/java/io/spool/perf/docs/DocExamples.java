package io.spool.perf.docs;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the java blocks of the docs into classes and runs the programs among them (the conventions are on
 * {@link DocExamplesTest}). Compiles against the class path of the JVM it runs in, so whatever runs the tests
 * (the reactor's build of every module) is what the examples are checked against.
 */
final class DocExamples
{
    /** What every fragment may use without importing it: the public API packages. */
    static final List<String> FRAGMENT_IMPORTS = List.of(
        "io.spool.*", "io.spool.api.*", "io.spool.api.log.*", "io.spool.api.stream.*", "io.spool.api.queue.*",
        "io.spool.api.routing.*", "io.spool.log.*", "io.spool.stream.*", "io.spool.queue.*", "io.spool.queue.routing.*",
        "io.spool.wire.client.*", "io.spool.wire.server.*",
        "java.nio.file.*", "java.time.*", "java.util.*", "static java.nio.charset.StandardCharsets.UTF_8");

    /** The names a fragment may use without declaring them, as the parameters of the method it is compiled in. */
    static final String FRAGMENT_PARAMETERS = "Spool spool, Subscription subscription, Receipt receipt, " +
        "SpoolClient client, byte[] key, byte[] value";

    private static final Pattern PUBLIC_CLASS = Pattern.compile("(?m)^public\\s+(?:final\\s+)?class\\s+(\\w+)");

    private DocExamples()
    {
    }

    /** The Java source the harness compiles for a block, and where the block's own lines start in it. */
    record Source(DocBlock block, String className, String text, int importLines, int codeStartLine)
    {
        /** The document's line for a line of this source (1-based both). */
        long documentLine(final long sourceLine)
        {
            if (sourceLine <= importLines)
            {
                return block.line() + sourceLine;
            }
            return block.line() + importLines + (sourceLine - codeStartLine) + 1;
        }
    }

    /** The source for a program (as written) or a fragment (wrapped); excerpts have none. */
    static Source sourceOf(final DocBlock block)
    {
        switch (block.kind())
        {
            case PROGRAM:
            {
                final Matcher name = PUBLIC_CLASS.matcher(block.code());
                if (!name.find())
                {
                    throw new IllegalArgumentException(block.location() + ": a ```java program block declares " +
                        "one top-level public class with a main method; mark a fragment ```java fragment");
                }
                return new Source(block, name.group(1), block.code(), 0, 1);
            }
            case FRAGMENT:
            {
                final List<String> lines = Arrays.asList(block.code().split("\n", -1));
                int imports = 0;
                while (imports < lines.size() && lines.get(imports).startsWith("import "))
                {
                    imports++;
                }
                final String className = "Fragment_" + block.file().toString()
                    .replaceAll("[^A-Za-z0-9]", "_") + "_" + block.line();
                final StringBuilder text = new StringBuilder();
                lines.subList(0, imports).forEach(l -> text.append(l).append('\n'));
                FRAGMENT_IMPORTS.forEach(i -> text.append("import ").append(i).append(";\n"));
                text.append("final class ").append(className).append("\n{\n")
                    .append("    static void fragment(").append(FRAGMENT_PARAMETERS).append(") throws Exception\n")
                    .append("    {\n");
                final int codeStart = (int)text.chars().filter(c -> c == '\n').count() + 1;
                lines.subList(imports, lines.size()).forEach(l -> text.append(l).append('\n'));
                text.append("    }\n}\n");
                return new Source(block, className, text.toString(), imports, codeStart);
            }
            default:
                throw new IllegalArgumentException(block.location() + ": an excerpt is not compiled");
        }
    }

    /**
     * Compiles the sources into {@code classes}, all in one compiler run.
     *
     * @return each source's errors, as lines naming the document line; empty lists for the ones that compiled.
     */
    static Map<Source, List<String>> compile(final List<Source> sources, final Path classes)
    {
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null)
        {
            throw new IllegalStateException("no Java compiler in this runtime: run the tests on a JDK, not a JRE");
        }
        final Map<JavaFileObject, Source> byFile = new LinkedHashMap<>();
        for (final Source source : sources)
        {
            byFile.put(new InMemorySource(source), source);
        }
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
            StandardCharsets.UTF_8))
        {
            Files.createDirectories(classes);
            final List<String> options = List.of("-d", classes.toString(), "-classpath", testClassPath(),
                "-proc:none", "-implicit:none");
            compiler.getTask(null, files, diagnostics, options, null, byFile.keySet()).call();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Map<Source, List<String>> errors = new LinkedHashMap<>();
        sources.forEach(s -> errors.put(s, new ArrayList<>()));
        for (final Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics())
        {
            if (diagnostic.getKind() != Diagnostic.Kind.ERROR)
            {
                continue;
            }
            final Source source = byFile.get(diagnostic.getSource());
            if (source == null)
            {
                throw new IllegalStateException("compiler error outside the examples: " + diagnostic);
            }
            errors.get(source).add(source.block().file() + ":" + source.documentLine(diagnostic.getLineNumber()) +
                ": " + diagnostic.getMessage(Locale.ROOT));
        }
        return errors;
    }

    /**
     * Runs a compiled program's {@code main} with {@code dataDir} as its only argument, in this JVM.
     *
     * @return what it printed on {@code System.out}.
     */
    static String run(final Source program, final Path classes, final Path dataDir) throws Throwable
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
            DocExamples.class.getClassLoader()))
        {
            final Method main = loader.loadClass(program.className()).getMethod("main", String[].class);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object)new String[] {dataDir.toString()});
        }
        catch (final InvocationTargetException ex)
        {
            throw ex.getCause();
        }
        finally
        {
            System.setOut(out);
        }
        return printed.toString(StandardCharsets.UTF_8);
    }

    /**
     * The class path the tests run with. Surefire may start its JVM through a jar whose manifest holds the real
     * class path; it then gives that path in {@code surefire.test.class.path}.
     */
    static String testClassPath()
    {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static final class InMemorySource extends SimpleJavaFileObject
    {
        private final String text;

        InMemorySource(final Source source)
        {
            super(URI.create("string:///" + source.className() + Kind.SOURCE.extension), Kind.SOURCE);
            this.text = source.text();
        }

        @Override
        public CharSequence getCharContent(final boolean ignoreEncodingErrors)
        {
            return text;
        }
    }
}
