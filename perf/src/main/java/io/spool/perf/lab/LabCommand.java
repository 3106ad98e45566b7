package io.spool.perf.lab;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code spool lab NAME|all}: runs the semantics labs and prints each one's table. Not thread-safe (one run).
 */
@Command(
    name = "lab",
    mixinStandardHelpOptions = true,
    description = {
        "Runs the semantics labs in virtual time: Spool's figures beside RabbitMQ's, SQS's and Kafka's.",
        "Each lab opens its own engine in a temporary directory and prints the same table every run."})
public final class LabCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "NAME|all", description = "the lab to run, or all of them")
    String name;

    @Option(names = "--list", description = "list the labs and what each compares")
    boolean list;

    @Override
    public void run()
    {
        final PrintWriter out = spec.commandLine().getOut();
        if (list)
        {
            for (final Lab lab : Labs.all())
            {
                out.printf("%-12s %s%n", lab.name(), lab.summary());
            }
            out.flush();
            return;
        }
        if (name == null)
        {
            throw new ParameterException(spec.commandLine(), "name a lab or 'all'; --list shows them");
        }
        final List<Lab> labs = "all".equals(name) ? Labs.all() : List.of(Labs.named(name).orElseThrow(
            () -> new ParameterException(spec.commandLine(), "no lab named '" + name + "'; --list shows them")));
        for (final Lab lab : labs)
        {
            out.println(runInTemporaryDirectory(lab).render());
            out.flush();
        }
    }

    private static LabTable runInTemporaryDirectory(final Lab lab)
    {
        final Path dir;
        try
        {
            dir = Files.createTempDirectory("spool-lab-" + lab.name() + "-");
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a directory for lab " + lab.name(), ex);
        }
        try
        {
            return lab.run(dir);
        }
        finally
        {
            delete(dir);
        }
    }

    private static void delete(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete the lab directory " + dir, ex);
        }
    }
}
