package io.spool.wire.sqs;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.log.DedupKey;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.stream.ProducerRecord;
import io.spool.queue.DeathHistory;
import io.spool.queue.Delivery;
import org.agrona.concurrent.EpochClock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * StartMessageMoveTask, ListMessageMoveTasks and CancelMessageMoveTask: moving a dead-letter queue's messages back to
 * the queues they died in (or to a queue named), as SQS's redrive does. A task receives the dead-letter queue's
 * messages, publishes each to its destination with its id, attributes and death history, and deletes it from the
 * dead-letter queue once the copy is stored, at most MaxNumberOfMessagesPerSecond, until the queue is empty or the
 * task is cancelled. A crash in between leaves the message in both queues, never in neither. Its deduplication id
 * is kept under {@link SqsHeaders#MOVED_DEDUPLICATION_ID}, so that the destination does not take it for a repeat of
 * itself. Each task runs on a thread of its own. A task is kept in a file ({@link MoveTaskFiles}) updated after each
 * batch it moves, for 14 days as SQS keeps them: after a restart ListMessageMoveTasks still lists it, and a task that
 * was running when the endpoint stopped (or crashed) goes on. The rate is paced, and tasks are stamped, by the
 * engine's clock, so that a hand-driven clock drives them too ({@link #sync}). Thread-safe.
 */
final class MessageMoves implements AutoCloseable
{
    private static final int MAX_RATE = 500;
    private static final long MOVE_LOCK_MILLIS = 60_000;
    private static final int MAX_LISTED = 10;
    private static final long KEPT_MILLIS = TimeUnit.DAYS.toMillis(14);

    private static final long NOT_WAITING = Long.MIN_VALUE;

    private final Spool spool;
    private final EpochClock clock;
    private final Queues queues;
    private final MoveTaskFiles files;
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();
    private final AtomicLong taskIds = new AtomicLong();
    private volatile boolean stopping;

    MessageMoves(final Spool spool, final Queues queues, final MoveTaskFiles files)
    {
        this.spool = spool;
        this.clock = spool.streams().clock();
        this.queues = queues;
        this.files = files;
        for (final MoveTaskFiles.SavedTask saved : files.load())
        {
            taskIds.accumulateAndGet(saved.id(), Math::max);
            final Task task = new Task(saved.id(), saved.handle(), saved.source(), saved.destination(), saved.rate(),
                saved.started(), saved.toMove());
            task.moved.set(saved.moved());
            task.status = Status.valueOf(saved.status());
            task.failure = saved.failure();
            tasks.put(task.handle, task);
        }
        forgetOld();
        for (final Task task : tasks.values())
        {
            if (task.status == Status.RUNNING || task.status == Status.CANCELLING)
            {
                task.thread.start();
            }
        }
    }

    /** Forgets the tasks started more than 14 days ago, as SQS does. */
    private void forgetOld()
    {
        final long now = clock.time();
        tasks.values().removeIf(task ->
        {
            final boolean old = task.status != Status.RUNNING && now - task.started > KEPT_MILLIS;
            if (old)
            {
                files.delete(task.id);
            }
            return old;
        });
    }

    private enum Status
    {
        RUNNING, COMPLETED, CANCELLING, CANCELLED, FAILED
    }

    private final class Task implements Runnable
    {
        final long id;
        final String handle;
        final String source;
        final String destination;
        final long rate;
        final long started;
        final long toMove;
        final Thread thread;
        final AtomicLong moved = new AtomicLong();
        volatile Status status = Status.RUNNING;
        volatile String failure;
        /** The clock's time the task waits for before its next batch, or NOT_WAITING while it works. */
        volatile long waitingUntil = NOT_WAITING;

        Task(final long id, final String handle, final String source, final String destination, final long rate,
            final long started, final long toMove)
        {
            this.id = id;
            this.handle = handle;
            this.source = source;
            this.destination = destination;
            this.rate = rate;
            this.toMove = toMove;
            this.started = started;
            this.thread = new Thread(this, "spool-sqs-move-" + source);
            this.thread.setDaemon(true);
        }

        @Override
        public void run()
        {
            final SpoolProducer producer = spool.newProducer();
            final long start = clock.time();
            final long movedBefore = moved.get();
            try
            {
                while (status == Status.RUNNING && !stopping)
                {
                    final SqsQueue from = queues.resolve(source);
                    final List<Delivery> deliveries = from.subscription().receive(rate > 0 ?
                        (int)Math.min(BatchEntries.MAX_ENTRIES, rate) : BatchEntries.MAX_ENTRIES, 0, MOVE_LOCK_MILLIS);
                    if (deliveries.isEmpty())
                    {
                        break;
                    }
                    for (final Delivery delivery : deliveries)
                    {
                        producer.send(copy(delivery)).join();
                        from.subscription().ack(delivery.receipt());
                        moved.incrementAndGet();
                    }
                    save();
                    pace(start, movedBefore);
                }
                if (!stopping || status == Status.CANCELLING)
                {
                    status = status == Status.CANCELLING ? Status.CANCELLED : Status.COMPLETED;
                }
            }
            catch (final RuntimeException ex)
            {
                failure = ex instanceof SqsException ? ex.getMessage() : ex.toString();
                status = Status.FAILED;
            }
            save();
        }

        /** Keeps the task as it stands; a task that was running when the endpoint stopped goes on at its start. */
        void save()
        {
            files.save(new MoveTaskFiles.SavedTask(id, handle, source, destination, rate, started, toMove,
                moved.get(), status.name(), failure));
        }

        private void pace(final long start, final long movedBefore)
        {
            if (rate <= 0)
            {
                return;
            }
            final long due = start + TimeUnit.SECONDS.toMillis(moved.get() - movedBefore) / rate;
            long now;
            while ((now = clock.time()) < due && status == Status.RUNNING && !stopping)
            {
                waitingUntil = due;
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(due - now));
            }
            waitingUntil = NOT_WAITING;
        }

        /** Whether the task has done all it can at the clock's time: it has ended, or waits for a later time. */
        boolean settled()
        {
            return !thread.isAlive() || waitingUntil > clock.time() ||
                status != Status.RUNNING && status != Status.CANCELLING;
        }

        private ProducerRecord copy(final Delivery delivery)
        {
            final Map<String, byte[]> headers = new LinkedHashMap<>(delivery.headers());
            final String target = destination != null ? destination : SqsHeaders.text(headers, DeathHistory.SUBSCRIPTION);
            if (target == null)
            {
                throw SqsError.UNSUPPORTED_OPERATION.with("message " + SqsHeaders.messageId(headers, source,
                    delivery.partition(), delivery.offset()) + " of " + source + " has no queue it died in; give " +
                    "the task a DestinationArn");
            }
            final SqsQueue to = queues.resolve(target);
            headers.put(SqsHeaders.MESSAGE_ID, SqsHeaders.messageId(headers, source, delivery.partition(),
                delivery.offset()).getBytes(StandardCharsets.UTF_8));
            final byte[] dedup = headers.remove(DedupKey.HEADER);
            if (dedup != null)
            {
                headers.put(SqsHeaders.MOVED_DEDUPLICATION_ID, dedup);
            }
            headers.remove(QueueHeaders.DELAY);
            headers.remove(QueueHeaders.DELIVER_AT);
            headers.remove(QueueHeaders.ROUTED_TO);
            if (!to.definition().ownsTopic())
            {
                headers.put(QueueHeaders.ROUTED_TO, to.name().getBytes(StandardCharsets.UTF_8));
            }
            return new ProducerRecord(to.topic(), ProducerRecord.ANY_PARTITION, null, headers,
                delivery.valueLength() < 0 ? new byte[0] : delivery.value());
        }

        Answer answer()
        {
            final Answer answer = new Answer();
            if (status == Status.RUNNING)
            {
                answer.put("TaskHandle", handle);
            }
            answer.put("Status", status.name()).put("SourceArn", queues.names().arn(source))
                .put("DestinationArn", destination == null ? null : queues.names().arn(destination));
            if (rate > 0)
            {
                answer.put("MaxNumberOfMessagesPerSecond", rate);
            }
            return answer.put("ApproximateNumberOfMessagesMoved", moved.get())
                .put("ApproximateNumberOfMessagesToMove", toMove).put("FailureReason", failure)
                .put("StartedTimestamp", started);
        }
    }

    /** StartMessageMoveTask. */
    Answer start(final Params request)
    {
        final String source = QueueNames.fromArn(request.required("SourceArn"), "SourceArn");
        final SqsQueue from = queues.resolve(source);
        if (queues.deadLetterSources(from).isEmpty())
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("Source queue must be configured as a Dead Letter Queue: " +
                "no queue's RedrivePolicy names " + source + ".");
        }
        final String destinationArn = request.string("DestinationArn");
        final String destination = destinationArn == null ? null : queues.resolve(QueueNames.fromArn(destinationArn,
            "DestinationArn")).name();
        final long rate = request.integer("MaxNumberOfMessagesPerSecond", 1, MAX_RATE, 0);
        synchronized (this)
        {
            if (tasks.values().stream().anyMatch(t -> t.source.equals(source) && t.status == Status.RUNNING))
            {
                throw SqsError.UNSUPPORTED_OPERATION.with("There is already a task running for " + source + ".");
            }
            forgetOld();
            final long id = taskIds.incrementAndGet();
            final String handle = Base64.getUrlEncoder().withoutPadding().encodeToString(
                (id + ":" + source).getBytes(StandardCharsets.UTF_8));
            final Task task = new Task(id, handle, source, destination, rate, clock.time(),
                from.subscription().metrics().ready());
            task.save();
            tasks.put(handle, task);
            task.thread.start();
            return new Answer().put("TaskHandle", handle);
        }
    }

    /** ListMessageMoveTasks: the source's most recent tasks first. */
    Answer list(final Params request)
    {
        final String source = QueueNames.fromArn(request.required("SourceArn"), "SourceArn");
        queues.resolve(source);
        final long max = request.integer("MaxResults", 1, MAX_LISTED, 1);
        final List<Task> ofSource = new ArrayList<>(tasks.values().stream().filter(t -> t.source.equals(source))
            .toList());
        ofSource.sort((a, b) -> Long.compare(id(b.handle), id(a.handle)));
        final List<Answer> results = ofSource.stream().limit(max).map(Task::answer).toList();
        return new Answer().objects("Results", "ListMessageMoveTasksResultEntry", results);
    }

    private static long id(final String handle)
    {
        final String decoded = new String(Base64.getUrlDecoder().decode(handle), StandardCharsets.UTF_8);
        return Long.parseLong(decoded.substring(0, decoded.indexOf(':')));
    }

    /** CancelMessageMoveTask. */
    Answer cancel(final Params request)
    {
        final Task task = tasks.get(request.required("TaskHandle"));
        if (task == null || task.status != Status.RUNNING)
        {
            throw SqsError.RESOURCE_NOT_FOUND.with("Task does not exist, or is not running.");
        }
        task.status = Status.CANCELLING;
        LockSupport.unpark(task.thread);
        return new Answer().put("ApproximateNumberOfMessagesMoved", task.moved.get());
    }

    /**
     * Wakes the tasks to look at the clock again and returns once each has moved all that the clock's time allows:
     * a hand-driven clock's advance does not wake a task waiting to pace its rate, so whoever moves it calls this.
     */
    void sync()
    {
        for (final Task task : tasks.values())
        {
            LockSupport.unpark(task.thread);
        }
        for (final Task task : tasks.values())
        {
            while (!task.settled())
            {
                Thread.yield();
            }
        }
    }

    /** Stops the running tasks where they are; they go on when the endpoint starts again. */
    @Override
    public void close()
    {
        stopping = true;
        for (final Task task : tasks.values())
        {
            LockSupport.unpark(task.thread);
        }
        for (final Task task : tasks.values())
        {
            try
            {
                task.thread.join(TimeUnit.SECONDS.toMillis(5));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
