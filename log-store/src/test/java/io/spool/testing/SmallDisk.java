package io.spool.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A tmpfs of its own mounted on a directory, whose size a test can cut to just above what it holds, so that the
 * next writes there meet a real ENOSPC, and raise again to free the space. Mounting needs root (or CAP_SYS_ADMIN),
 * as the project's tests and CI run; without it the test fails naming the reason, since a disk that never fills
 * would show nothing. Not thread-safe.
 */
public final class SmallDisk implements AutoCloseable
{
    private static final long PAGE = 4096;
    private static final int CUT_ATTEMPTS = 20;

    private final Path mountPoint;
    private boolean mounted;

    private SmallDisk(final Path mountPoint)
    {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code bytes} on {@code dir}, which is created if missing and must be empty. */
    public static SmallDisk mount(final Path dir, final long bytes)
    {
        final SmallDisk disk = new SmallDisk(dir);
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", dir.toString());
        disk.mounted = true;
        return disk;
    }

    /**
     * Cuts the disk's size to what it holds now and {@code headroom} bytes more: writes past that fail. The node on
     * it goes on writing meanwhile, and tmpfs refuses a size below what it holds, so a refused cut is measured and
     * tried again.
     */
    public void fillUpTo(final long headroom)
    {
        for (int attempt = 1; ; attempt++)
        {
            final Result cut = tryRun(remount(used() + headroom));
            if (cut.succeeded())
            {
                return;
            }
            if (attempt == CUT_ATTEMPTS)
            {
                throw refused(remount(used() + headroom), cut.output());
            }
        }
    }

    /** Gives the disk {@code bytes} in all, as an operator freeing space would. */
    public void resize(final long bytes)
    {
        run(remount(bytes));
    }

    private String[] remount(final long bytes)
    {
        return new String[] {"mount", "-o", "remount,size=" + (bytes + PAGE - 1) / PAGE * PAGE, mountPoint.toString()};
    }

    public long used()
    {
        try
        {
            final FileStore store = Files.getFileStore(mountPoint);
            return store.getTotalSpace() - store.getUnallocatedSpace();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private record Result(boolean succeeded, String output)
    {
    }

    private static void run(final String... command)
    {
        final Result result = tryRun(command);
        if (!result.succeeded())
        {
            throw refused(command, result.output());
        }
    }

    private static AssertionError refused(final String[] command, final String output)
    {
        return new AssertionError("this test needs a small disk of its own that can really fill up, and `" +
            String.join(" ", command) + "` failed: " + output + ". Run it as root (or with CAP_SYS_ADMIN) where " +
            "tmpfs can be mounted, as .ci/run's container does");
    }

    private static Result tryRun(final String... command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return new Result(process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0, output);
        }
        catch (final IOException ex)
        {
            return new Result(false, ex.toString());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + String.join(" ", command), ex);
        }
    }

    /** Unmounts the disk; what was on it is gone. */
    @Override
    public void close()
    {
        if (mounted)
        {
            mounted = false;
            run("umount", "--lazy", mountPoint.toString());
        }
    }
}
