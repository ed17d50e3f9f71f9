package io.toolboundary.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.adapter.inmemory.InMemoryCanonicalInvocationStore;
import io.toolboundary.application.spi.OutboxBacklog;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.ToolName;
import io.toolboundary.testkit.MutableClock;
import io.vavr.control.Either;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

/** The exporter's rules over the in-memory store's outbox: once per record, nothing acknowledged unwritten. */
class RecordExporterTest {

    private final MutableClock clock = MutableClock.at(Instant.parse("2026-12-07T10:00:00.123456Z"));
    private final InMemoryCanonicalInvocationStore store =
            InMemoryCanonicalInvocationStore.custom().clock(clock).outbox(100_000).build();
    private final ExportWorkload workload = new ExportWorkload(store, clock);
    private final ListSink sink = new ListSink();

    private RecordExporter.Builder exporter() {
        return RecordExporter.builder(store, sink).rawResponses(RawResponsePolicy.KEEP).batchSize(7);
    }

    private static void drain(RecordExporter exporter) {
        for (int round = 0; round < 10_000; round++) {
            Either<RecordExporter.Failure, RecordExporter.Round> done = exporter.exportOnce();
            assertThat(done.isRight()).as("round %s: %s", round, done).isTrue();
            if (done.get().exported() + done.get().lost() == 0) {
                return;
            }
        }
        throw new AssertionError("the outbox did not drain");
    }

    private OutboxBacklog backlog() {
        return store.outbox().get().backlog(Duration.ofSeconds(1)).get();
    }

    @Test
    void everyFinalRecordIsWrittenOnceAndNoRefusedCallIs() {
        workload.play("run-1", 60);
        RecordExporter exporter = exporter().build();

        drain(exporter);

        assertThat(sink.rows.keySet()).containsExactlyInAnyOrderElementsOf(workload.finals);
        assertThat(sink.rows.keySet()).doesNotContainAnyElementsOf(workload.refused);
        assertThat(workload.duplicates).isPositive();
        for (InvocationKey key : workload.finals) {
            assertThat(sink.rows.get(key).record()).isEqualTo(workload.stored(key));
        }
        assertThat(sink.rowsOffered.get()).isEqualTo(workload.finals.size());
        assertThat(backlog().entries()).isZero();
        assertThat(exporter.stats().exported()).isEqualTo(workload.finals.size());
        assertThat(exporter.stats().backlog().get().lag(clock.instant())).isZero();
    }

    @Test
    void aDatabaseThatIsDownStopsTheRoundAndKeepsItsEntries() {
        workload.play("run-1", 12);
        RecordExporter exporter = exporter().build();
        sink.down = true;

        Either<RecordExporter.Failure, RecordExporter.Round> failed = exporter.exportOnce();

        assertThat(failed.getLeft().stage()).isEqualTo(RecordExporter.Stage.DATABASE);
        assertThat(failed.getLeft().reason()).contains("08001");
        assertThat(backlog().entries()).isEqualTo(workload.finals.size());
        assertThat(exporter.stats().lastFailure()).contains(failed.getLeft());
        clock.advance(Duration.ofMinutes(3));
        assertThat(exporter.stats().backlog().get().lag(clock.instant())).isGreaterThanOrEqualTo(Duration.ofMinutes(3));

        sink.down = false;
        drain(exporter);

        assertThat(sink.rows.keySet()).containsExactlyInAnyOrderElementsOf(workload.finals);
        assertThat(backlog().entries()).isZero();
        assertThat(exporter.stats().failures()).isEqualTo(1);
        assertThat(exporter.stats().lastFailure()).isEmpty();
    }

    @Test
    void anExporterKilledBeforeItsAcknowledgementLeavesItsEntriesToItsSuccessorWhoseWriteIsANoOp() {
        workload.play("run-1", 12);
        RecordExporter killed = exporter().consumer("first").batchSize(100).build();
        sink.dieAfterWrite = true;
        assertThatThrownBy(killed::exportOnce).isInstanceOf(ListSink.Killed.class);
        sink.dieAfterWrite = false;
        assertThat(sink.rows).hasSize(workload.finals.size());

        RecordExporter successor = exporter().consumer("second").claimIdle(Duration.ofSeconds(30)).build();
        assertThat(successor.exportOnce().get()).isEqualTo(new RecordExporter.Round(0, 0));
        assertThat(backlog().entries()).as("entries wait for the claim").isEqualTo(workload.finals.size());

        clock.advance(Duration.ofSeconds(30));
        drain(successor);

        assertThat(sink.rows.keySet()).containsExactlyInAnyOrderElementsOf(workload.finals);
        assertThat(sink.rowsOffered.get()).isEqualTo(2 * workload.finals.size());
        assertThat(backlog().entries()).isZero();
    }

    @Test
    void twoExportersRacingWriteEachRecordOnce() throws Exception {
        workload.play("run-1", 600);
        RecordExporter one = exporter().consumer("one").build();
        RecordExporter two = exporter().consumer("two").build();
        Thread other = new Thread(() -> drain(two));
        other.start();
        drain(one);
        other.join();

        assertThat(sink.rows.keySet()).containsExactlyInAnyOrderElementsOf(workload.finals);
        assertThat(sink.rowsOffered.get()).as("no entry delivered twice").isEqualTo(workload.finals.size());
        assertThat(one.stats().exported()).isPositive();
        assertThat(one.stats().exported() + two.stats().exported()).isEqualTo(workload.finals.size());
    }

    @Test
    void aRecordWhoseTtlEndedBeforeExportIsCountedAsLostNeverSkippedSilently() {
        workload.play("run-1", 12);
        clock.advance(Duration.ofHours(25));
        RecordExporter exporter = exporter().build();

        drain(exporter);

        assertThat(sink.rows).isEmpty();
        assertThat(exporter.stats().lost()).isEqualTo(workload.finals.size());
        assertThat(backlog()).isEqualTo(new OutboxBacklog(0, io.vavr.control.Option.none(), workload.finals.size()));
    }

    @Test
    void anOutboxThatCarriesRecordsReachesThemAfterTheirTtlEnded() {
        InMemoryCanonicalInvocationStore carrying = InMemoryCanonicalInvocationStore.custom().clock(clock)
                .outbox(1_000).outboxCarriesRecords(true).build();
        ExportWorkload played = new ExportWorkload(carrying, clock);
        played.play("run-1", 12);
        java.util.Map<InvocationKey, CanonicalRecord.Final> before = new java.util.HashMap<>();
        played.finals.forEach(key -> before.put(key, played.stored(key)));
        clock.advance(Duration.ofHours(25));

        drain(RecordExporter.builder(carrying, sink).rawResponses(RawResponsePolicy.KEEP).build());

        assertThat(sink.rows.keySet()).containsExactlyInAnyOrderElementsOf(played.finals);
        played.finals.forEach(key -> assertThat(sink.rows.get(key).record()).isEqualTo(before.get(key)));
    }

    @Test
    void rawResponsesAreMaskedByDefaultAndFollowEachToolsPolicy() {
        workload.play("run-1", 6);
        drain(RecordExporter.builder(store, sink)
                .rawResponses(new ToolName(ExportWorkload.BAD_PROJECTION), RawResponsePolicy.OMIT).build());

        AuditedRecord logs = sink.rows.get(workload.finals.get(0));
        assertThat(logs.rawPolicy()).isEqualTo(RawResponsePolicy.MASK);
        assertThat(logs.record().rawResponse().get()).contains("payments ERROR timeout").doesNotContain("hunter2");
        assertThat(workload.stored(workload.finals.get(0)).rawResponse().get()).contains("hunter2");
        AuditedRecord omitted = sink.rows.get(workload.finals.get(3));
        assertThat(omitted.rawPolicy()).isEqualTo(RawResponsePolicy.OMIT);
        assertThat(omitted.record().rawResponse()).isEmpty();
        assertThat(omitted.record().errorCode()).isEqualTo(workload.stored(workload.finals.get(3)).errorCode());
    }

    @Test
    void aFullInMemoryOutboxDropsItsOldestEntryAndCountsIt() {
        InMemoryCanonicalInvocationStore small = InMemoryCanonicalInvocationStore.custom().clock(clock).outbox(3).build();
        ExportWorkload played = new ExportWorkload(small, clock);
        played.play("run-1", 12);
        RecordExporter exporter = RecordExporter.builder(small, sink).build();

        drain(exporter);

        assertThat(sink.rows.keySet()).containsExactlyInAnyOrderElementsOf(
                played.finals.subList(played.finals.size() - 3, played.finals.size()));
        assertThat(exporter.stats().backlog().get().lost()).isEqualTo(played.finals.size() - 3);
    }

    @Test
    void theBackgroundThreadExportsWhileCallsGoOnAndStopsOnClose() throws Exception {
        RecordExporter exporter = RecordExporter.builder(store, sink).pollInterval(Duration.ofMillis(10)).build().start();
        try {
            workload.play("run-1", 120);
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (sink.rows.size() < workload.finals.size() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
        } finally {
            exporter.close();
        }
        assertThat(new HashSet<>(sink.rows.keySet())).containsExactlyInAnyOrderElementsOf(workload.finals);
        assertThatThrownBy(exporter::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aStoreWithExportOffIsRefusedByName() {
        assertThatThrownBy(() -> RecordExporter.builder(InMemoryCanonicalInvocationStore.create(), sink).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("export off");
        assertThatThrownBy(() -> exporter().consumer("has space")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> exporter().batchSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> exporter().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
