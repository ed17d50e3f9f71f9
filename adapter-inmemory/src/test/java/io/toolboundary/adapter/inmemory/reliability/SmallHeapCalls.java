package io.toolboundary.adapter.inmemory.reliability;

import static io.toolboundary.tck.store.StoreRecordFixtures.TIMEOUT;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.RunContext;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.ToolCallEnvelope;
import io.toolboundary.domain.AgentResult;
import io.toolboundary.domain.BoundaryError;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.ErrorCode;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.testkit.FakeProjectors;
import io.toolboundary.testkit.Fixtures;
import io.vavr.control.Either;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Run in a child JVM with a small heap by {@link SmallHeapTest}: many calls with fresh ids through
 * {@link ToolBoundary} with the default config, each tool returning a new raw response of
 * {@value #RAW_CHARS} characters (about 1 MiB), on the default in-memory store
 * ({@link InMemoryCanonicalInvocationStore#create()}). The mode, the second argument: {@code ascii}, all
 * {@code x}; {@code utf16}, the same with its last character {@code Ω}, so that the string takes two
 * bytes per character in the heap, about twice the UTF-8 bytes the store counts (the worst case); or
 * {@code unbounded}, as {@code ascii} on a store without a bound. Prints one line, {@code SMALL-HEAP calls=… ready=… storeFull=… other=… escaped=… firstEscaped=…
 * projecting=… maxHeap=… maxBytes=… maxRecords=… heldBytes=… elapsedMs=…}, and stops at the first throwable
 * that escapes {@code invoke}.
 */
public final class SmallHeapCalls {

    /** The length of every raw response: 1,000,000 ASCII characters. */
    public static final int RAW_CHARS = 1_000_000;

    private SmallHeapCalls() {
    }

    /**
     * Runs the calls.
     *
     * @param args the number of calls and the mode
     */
    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        String mode = args[1];
        boolean unbounded = mode.equals("unbounded");
        char last = mode.equals("utf16") ? 'Ω' : 'x';
        long started = System.nanoTime();
        InMemoryCanonicalInvocationStore store = unbounded
                ? InMemoryCanonicalInvocationStore.custom().maxRecords(Long.MAX_VALUE).maxBytes(Long.MAX_VALUE).build()
                : InMemoryCanonicalInvocationStore.create();
        ToolBoundary boundary = ToolBoundary.builder().store(store).accessPolicy(AccessPolicy.allowAll())
                .tool(ToolBinding.readOnly(Fixtures.DEFAULT_TOOL_NAME, request -> {
                    // A new string every call, as a real tool's response would be.
                    char[] raw = new char[RAW_CHARS];
                    Arrays.fill(raw, 'x');
                    raw[RAW_CHARS - 1] = last;
                    return new String(raw);
                }, FakeProjectors.evidenceFound("found")))
                .build();
        RunContext run = Fixtures.opened(boundary, Fixtures.anyRunContext());
        List<InvocationKey> keys = new ArrayList<>();
        int ready = 0;
        int storeFull = 0;
        int other = 0;
        int escaped = 0;
        String firstEscaped = "none";
        for (int i = 0; i < calls; i++) {
            ToolCallEnvelope call = Fixtures.envelope(run).withToolCallId("call_" + i).build();
            keys.add(InvocationKey.of(run.runId(), new ToolCallId(call.toolCallId())));
            try {
                Either<BoundaryError, AgentResult> answer = boundary.invoke(run, call);
                if (answer.isRight()) {
                    ready++;
                } else if (answer.getLeft().code() == ErrorCode.STORE_FULL) {
                    storeFull++;
                } else {
                    other++;
                }
            } catch (Throwable escapedInvoke) {
                escaped++;
                firstEscaped = escapedInvoke.getClass().getName();
                break;
            }
        }
        int projecting = 0;
        for (InvocationKey key : keys) {
            if (store.find(key, TIMEOUT).get().exists(CanonicalRecord.Projecting.class::isInstance)) {
                projecting++;
            }
        }
        System.out.println("SMALL-HEAP calls=" + keys.size() + " ready=" + ready + " storeFull=" + storeFull
                + " other=" + other + " escaped=" + escaped + " firstEscaped=" + firstEscaped
                + " projecting=" + projecting + " maxHeap=" + Runtime.getRuntime().maxMemory()
                + " maxBytes=" + store.maxBytes() + " maxRecords=" + store.maxRecords()
                + " heldBytes=" + store.heldBytes() + " elapsedMs=" + (System.nanoTime() - started) / 1_000_000);
    }
}
