package io.toolboundary.adapter.redis;

import io.toolboundary.application.spi.StoreFailure;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.redisson.Redisson;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.api.options.ObjectParams;
import org.redisson.api.options.OptionalOptions;
import org.redisson.client.RedisNoScriptException;
import org.redisson.command.CommandAsyncExecutor;

/**
 * Runs the store's Lua scripts: one Redisson try per attempt, with the store's own reply timeout, and
 * its own retries within the caller's timeout, knowing after each try whether the script may have run.
 *
 * <p>Every call passes the {@link OutageGate} first: while Redis could not be reached, calls are answered
 * {@code STORE_UNAVAILABLE} at once, but for one probe at a time. A try that can make no connection is
 * not repeated within the call: nothing was sent, and the store is down.
 *
 * <p>Two hooks apply to the scripts that write ({@link LuaScripts.Script#writes()}): the {@link MasterPolicyWatch} may
 * refuse one before it is sent, and, when the options ask for replica acknowledgement, each try goes
 * through the {@link ReplicaAcknowledger} ({@code WAIT} behind the script, on its connection).
 */
final class ScriptRunner {

    private static final System.Logger LOG = System.getLogger(RedisCanonicalInvocationStore.class.getName());

    private final RedissonClient client;
    private final long responseTimeoutMillis;
    private final RScript scripts;
    private final CommandAsyncExecutor commands;
    private final MasterPolicyWatch masters;
    private final Option<ReplicaAcknowledger> replicas;
    private final OutageGate gate;

    ScriptRunner(RedissonClient client, RedisStoreOptions options, MasterPolicyWatch masters) {
        // One try per call, with the store's own reply timeout: the store retries by itself, within the
        // caller's timeout, and knows after each try whether the script may have run.
        this.client = client;
        this.responseTimeoutMillis = options.responseTimeout().toMillis();
        OptionalOptions oneTry = OptionalOptions.defaults().codec(ScriptCodec.INSTANCE)
                .timeout(options.responseTimeout()).retryAttempts(0);
        this.scripts = client.getScript(oneTry);
        // EVALSHA goes as the command it is, with the same options: Redisson's script object would map
        // each key, encode every argument ahead and copy them into new lists on every call.
        this.commands = client instanceof Redisson redisson
                ? redisson.getCommandExecutor().copy((ObjectParams) oneTry)
                : null;
        this.masters = masters;
        this.replicas = options.replicaAcknowledgement().map(wanted -> new ReplicaAcknowledger(client, wanted, options));
        this.gate = client.getConfig().isClusterConfig() ? OutageGate.perSlot() : OutageGate.single();
    }

    /**
     * Loads every script on every master, waiting at most {@code wait}, so that the first calls, and the
     * clean-up above all, find them cached. Best effort: a script a master lacks later is sent by source.
     */
    void preload(Duration wait) {
        RScript loader = client.getScript(ScriptCodec.INSTANCE);
        try {
            CompletableFuture<?>[] loads = LuaScripts.ALL.stream()
                    .map(script -> loader.scriptLoadAsync(script.source()).toCompletableFuture())
                    .toArray(CompletableFuture[]::new);
            CompletableFuture.allOf(loads).get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException notLoaded) {
            LOG.log(System.Logger.Level.DEBUG, "Redis store scripts not all loaded at start ({0}); each is sent by"
                    + " source where a master lacks it", notLoaded.getClass().getSimpleName());
        }
    }

    /** How many calls were answered {@code STORE_UNAVAILABLE} unsent, while Redis could not be reached. */
    long turnedAway() {
        return gate.turnedAway();
    }

    /**
     * Runs one script until it answers, fails for good, or {@code timeout} runs out. Each try waits at
     * most the response timeout; a try that failed in a way another may mend (no connection, a slot in
     * migration, a reply that never came) is followed by another after a short pause. The calling
     * thread's interrupt flag is cleared for the while and set again afterwards, also when an interrupt
     * came meanwhile: an interrupt never cuts a write short, so it never leaves a record behind. The
     * outcome says whether any try may have run the script ({@code STORE_OUTCOME_UNKNOWN}) or none can
     * have ({@code STORE_UNAVAILABLE}).
     */
    <A extends ScriptArgs> Either<StoreFailure, Object> run(LuaScripts.Script<A, ?> script, A args,
            Duration timeout) {
        return run(script, args, timeout, Option.none());
    }

    /**
     * {@link #run(LuaScripts.Script, ScriptArgs, Duration)}, with {@code write}, when defined, sent before
     * the script in the same pipeline on every try ({@link FinalRecordWrite}).
     */
    <A extends ScriptArgs> Either<StoreFailure, Object> run(LuaScripts.Script<A, ?> script, A args,
            Duration timeout, Option<FinalRecordWrite> write) {
        String routingKey = args.routingKey();
        OutageGate.Pass pass = gate.enter(routingKey);
        if (pass == OutageGate.Pass.SHUT) {
            return Either.left(StoreFailure.unavailable());
        }
        Wait wait = new Wait(System.nanoTime() + Math.max(timeout.toNanos(), 0L), Thread.interrupted());
        try {
            if (script.writes()) {
                Option<StoreFailure> refused = masters.refusal(wait.deadline);
                wait.interrupted |= Thread.interrupted();
                if (refused.isDefined()) {
                    return Either.left(refused.get());
                }
            }
            return new Call(script, routingKey, args.keys(), args.argv().toArray(), write, wait).run();
        } finally {
            // A probe that learnt nothing (refused by the master policy, given up, any failure after a
            // connection) lets the next call probe; one that learnt has already moved the gate.
            gate.undecided(routingKey, pass);
            if (wait.interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How a try names the script. */
    private enum Via {
        /** By SHA-1 ({@code EVALSHA}). */
        SHA,
        /** By source: the node did not know it, or the clean-up, whose tries may wait in a frozen socket. */
        SOURCE,
        /** By SHA-1 again, after a try by source made it known; a {@code NOSCRIPT} now is final. */
        SHA_AFTER_SOURCE
    }

    /** Where a write response goes. */
    private enum WritePlacement {
        /** There is none. */
        NONE,
        /** Just before the script, in one pipeline with it. */
        IN_PIPELINE,
        /**
         * As two commands, each following redirections: the {@code SET}, then the script; once the
         * pipeline's {@code SET} reached another node than its script (a slot in migration), or its
         * script was unknown to the node that ran it.
         */
        BEFORE_SCRIPT
    }

    /**
     * The state of one call between its tries.
     *
     * @param via how the next try names the script
     * @param write where the next try sends the write response
     * @param mayHaveRun whether an earlier try may have run the script
     */
    private record Plan(Via via, WritePlacement write, boolean mayHaveRun) {
        Plan via(Via next) {
            return new Plan(next, write, mayHaveRun);
        }

        Plan write(WritePlacement next) {
            return new Plan(via, next, mayHaveRun);
        }

        Plan mayHaveRun(boolean next) {
            return new Plan(via, write, next);
        }
    }

    /** What one try leads to. */
    private sealed interface Step {
        /** The call's result. */
        record Done(Either<StoreFailure, Object> result) implements Step {
        }

        /** The same try sent again another way, at once and without counting as a retry. */
        record Resend(Plan next) implements Step {
        }

        /** A try that failed in a way another may mend: after a pause, if the deadline leaves room. */
        record Retry(Plan next, Throwable failure, RedisFailures.Failure kind) implements Step {
        }
    }

    /** One call of a script: its tries, each leading to a {@link Step}, until one is {@link Step.Done}. */
    private final class Call {
        private final LuaScripts.Script<?, ?> script;
        private final String routingKey;
        private final List<Object> scriptKeys;
        private final Object[] values;
        private final Option<FinalRecordWrite> write;
        private final Option<ReplicaAcknowledger> acknowledged;
        private final Wait wait;

        Call(LuaScripts.Script<?, ?> script, String routingKey, List<Object> scriptKeys, Object[] values,
                Option<FinalRecordWrite> write, Wait wait) {
            this.script = script;
            this.routingKey = routingKey;
            this.scriptKeys = scriptKeys;
            this.values = values;
            this.write = write;
            this.acknowledged = script.writes() ? replicas : Option.none();
            this.wait = wait;
        }

        Either<StoreFailure, Object> run() {
            Plan plan = new Plan(script.equals(LuaScripts.END) ? Via.SOURCE : Via.SHA,
                    write.isDefined() ? WritePlacement.IN_PIPELINE : WritePlacement.NONE, false);
            int retries = 0;
            while (true) {
                Step step = once(plan);
                if (step instanceof Step.Done done) {
                    return done.result();
                }
                if (step instanceof Step.Resend resend) {
                    plan = resend.next();
                } else {
                    Step.Retry retry = (Step.Retry) step;
                    plan = retry.next();
                    if (!wait.pause(retries++)) {
                        return failed(script, retry.failure(), retry.kind(), plan.mayHaveRun());
                    }
                }
            }
        }

        private Step once(Plan plan) {
            Throwable failure;
            try {
                if (plan.write() == WritePlacement.BEFORE_SCRIPT) {
                    wait.await(write.get().sendAlone(client));
                }
                Option<FinalRecordWrite> together = plan.write() == WritePlacement.IN_PIPELINE ? write : Option.none();
                Object answer = wait.await(send(script, routingKey, scriptKeys, values, acknowledged, together,
                        plan.via() == Via.SOURCE));
                if (acknowledged.isDefined() && plan.via() == Via.SOURCE) {
                    // The script ran by source, which the replicas were not asked to acknowledge, and is now
                    // known to the node: send it again by SHA with WAIT behind it (it is safe to run twice).
                    return new Step.Resend(plan.via(Via.SHA_AFTER_SOURCE).mayHaveRun(true));
                }
                gate.reached(routingKey);
                return new Step.Done(Either.right(answer));
            } catch (TimeoutException outOfTime) {
                // Given up while the try was in flight: it may still reach the server.
                return new Step.Done(failed(script, outOfTime, RedisFailures.Failure.MAY_HAVE_RUN, true));
            } catch (ExecutionException failed) {
                failure = failed.getCause() == null ? failed : failed.getCause();
            }
            if (failure instanceof FinalRecordWrite.Unlinked && plan.write() == WritePlacement.IN_PIPELINE) {
                // The script wrote nothing, and its SET went elsewhere: from now on the two go apart.
                return new Step.Resend(plan.write(WritePlacement.BEFORE_SCRIPT));
            }
            if (failure instanceof ReplicaAcknowledger.ReplicasNotAcknowledged shortfall) {
                gate.reached(routingKey);
                return new Step.Done(notAcknowledged(script, shortfall));
            }
            if (isNoScript(failure) && plan.via() == Via.SHA) {
                // The node that answered does not know the script: a restarted or failed-over server, or the
                // new owner of a slot in migration, reached by ASK or MOVED. A script load by key would go to
                // the slot's owner in the client's map, not necessarily to that node; the script's source,
                // sent the way the script is, reaches the node that runs it (and leaves it cached there).
                // A write response's pipeline goes apart from then on: the SET alone, then the script by source.
                Plan bySource = plan.via(Via.SOURCE);
                return new Step.Resend(plan.write() == WritePlacement.IN_PIPELINE
                        ? bySource.write(WritePlacement.BEFORE_SCRIPT) : bySource);
            }
            RedisFailures.Failure kind = RedisFailures.classify(failure);
            Plan next = plan.mayHaveRun(plan.mayHaveRun() || kind.mayHaveRun());
            if (kind == RedisFailures.Failure.UNREACHABLE) {
                gate.unreachable(routingKey);
            }
            return kind.retryable() ? new Step.Retry(next, failure, kind)
                    : new Step.Done(failed(script, failure, kind, next.mayHaveRun()));
        }
    }

    /**
     * One try of the script, with {@code write} before it in its pipeline when defined; a pipeline names the
     * script by its SHA-1 only ({@code bySource} never comes with {@code write}).
     */
    private CompletionStage<Object> send(LuaScripts.Script<?, ?> script, String routingKey, List<Object> scriptKeys,
            Object[] values, Option<ReplicaAcknowledger> acknowledged, Option<FinalRecordWrite> write, boolean bySource) {
        if (acknowledged.isDefined()) {
            return bySource
                    ? acknowledged.get().loadAndRun(script, routingKey, scriptKeys, values)
                    : acknowledged.get().send(script, routingKey, scriptKeys, values, write);
        }
        if (write.isDefined()) {
            return write.get().send(client, FinalRecordWrite.options(responseTimeoutMillis), script, routingKey,
                    scriptKeys, values).thenApply(FinalRecordWrite.Replied::reply);
        }
        return bySource
                ? scripts.evalAsync(routingKey, RScript.Mode.READ_WRITE, script.source(), RScript.ReturnType.LIST,
                        scriptKeys, values)
                : commands != null
                        ? commands.<List<Object>, Object>writeAsync(routingKey, ScriptCodec.INSTANCE,
                                FinalRecordWrite.EVALSHA_LIST, FinalRecordWrite.evalShaParams(script, scriptKeys, values))
                        : scripts.evalShaAsync(routingKey, RScript.Mode.READ_WRITE, script.sha1(),
                                RScript.ReturnType.LIST, scriptKeys, values);
    }

    /**
     * True when the node did not know the script: {@code NOSCRIPT}, also behind a write response's
     * {@code SET} in the same pipeline (which wrote only the attempt's pending write key, as the next try
     * does again).
     */
    static boolean isNoScript(Throwable failure) {
        return RedisFailures.replied(failure, "NOSCRIPT", RedisNoScriptException.class);
    }

    /**
     * The script wrote on the master, or confirmed an earlier write there, but fewer replicas than asked
     * acknowledged it in time: a failover could lose it. Not tried again; the caller acts on an unknown
     * outcome.
     */
    private static Either<StoreFailure, Object> notAcknowledged(LuaScripts.Script<?, ?> script,
            ReplicaAcknowledger.ReplicasNotAcknowledged shortfall) {
        StoreFailure unknown = StoreFailure.outcomeUnknown();
        LOG.log(System.Logger.Level.WARNING, "Redis store script {0} failed with {1}, reported as {2}: "
                + shortfall.acknowledged() + " of " + shortfall.wanted().replicas() + " replicas acknowledged within "
                + shortfall.wanted().timeout().toMillis() + " ms", script.name(), "ReplicasNotAcknowledged",
                unknown.code());
        return Either.left(unknown);
    }

    private static Either<StoreFailure, Object> failed(LuaScripts.Script<?, ?> script, Throwable failure,
            RedisFailures.Failure kind, boolean anyMayHaveRun) {
        StoreFailure answer = RedisFailures.finalFailure(kind, anyMayHaveRun);
        LOG.log(System.Logger.Level.WARNING, "Redis store script {0} failed with {1}, reported as {2}",
                script.name(), failure.getClass().getSimpleName(), answer.code());
        return Either.left(answer);
    }

    /**
     * The deadline of one store operation, and the interrupts that came while it waited. Waits never
     * throw {@link InterruptedException}: an interrupt is noted and the wait goes on.
     */
    private static final class Wait {
        /** The first pause between tries; each later one doubles, up to {@link #MAX_PAUSE_NANOS}. */
        private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
        private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

        final long deadline;
        boolean interrupted;

        Wait(long deadline, boolean interrupted) {
            this.deadline = deadline;
            this.interrupted = interrupted;
        }

        <T> T await(CompletionStage<T> future) throws ExecutionException, TimeoutException {
            CompletableFuture<T> result = future.toCompletableFuture();
            while (true) {
                long left = deadline - System.nanoTime();
                try {
                    if (left <= 0) {
                        if (result.isDone()) {
                            return result.getNow(null);
                        }
                        throw new TimeoutException();
                    }
                    return result.get(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException interrupt) {
                    interrupted = true;
                } catch (TimeoutException outOfTime) {
                    // No further retries of this command by the client: it is abandoned here.
                    result.cancel(false);
                    throw outOfTime;
                } catch (CancellationException | CompletionException odd) {
                    throw new ExecutionException(odd);
                }
            }
        }

        /** Pauses before try {@code attempt + 1}; false when the deadline leaves no room for it. */
        boolean pause(int attempt) {
            long pause = Math.min(MAX_PAUSE_NANOS, FIRST_PAUSE_NANOS << Math.min(attempt, 10));
            long wakeUp = System.nanoTime() + pause;
            if (deadline - wakeUp <= 0) {
                return false;
            }
            for (long left = pause; left > 0; left = wakeUp - System.nanoTime()) {
                LockSupport.parkNanos(left);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            return true;
        }
    }
}
