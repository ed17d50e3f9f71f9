package io.toolboundary.adapter.inmemory;

import static io.toolboundary.tck.store.StoreRecordFixtures.LEASE;
import static io.toolboundary.tck.store.StoreRecordFixtures.TTL;
import static io.toolboundary.tck.store.StoreRecordFixtures.freshRunId;
import static io.toolboundary.tck.store.StoreRecordFixtures.projecting;
import static io.toolboundary.tck.store.StoreRecordFixtures.readyOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.toolboundary.application.spi.AttemptToken;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.spi.Refusal;
import io.vavr.control.Either;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The record table's room accounting when a completion and the expiry sweep meet: a record's one entry
 * takes its final state in place, and whoever drops the entry gives back exactly the room it holds then.
 */
class RecordTableTest {

    private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant EXPIRED = NOW.plus(TTL);

    private final CanonicalRecord.Projecting record = projecting(freshRunId(), "call_1");
    private final CanonicalRecord.Ready ready = readyOf(record);

    private RecordTable.Entry begun(RecordTable table, Room room) {
        assertThat(room.admit(record.byteSize())).isTrue();
        RecordTable.Entry entry = entry(NOW, TTL);
        table.put(entry);
        return entry;
    }

    @Test
    void anEntryHeldUnderTheSlotItsBeginLookedUpIsFoundByItsKey() {
        Room room = new Room(10, Long.MAX_VALUE, 10);
        RecordTable table = new RecordTable(room);
        RecordTable.Slot slot = new RecordTable.Slot(record.key());
        assertThat(table.live(slot, NOW)).isNull();

        RecordTable.Entry entry = new RecordTable.Entry(slot, record, AttemptToken.random(), NOW, TTL, LEASE);
        table.put(entry);

        assertThat(table.live(record.key(), NOW)).isSameAs(entry);
        assertThat(table.live(new RecordTable.Slot(record.key()), NOW)).isSameAs(entry);
    }

    @Test
    void anEntryExpiresAtItsBeginPlusItsTtlToTheNanosecondCarryingIntoTheNextSecond() {
        Instant begunAt = Instant.parse("2030-01-01T00:00:00.700000000Z");
        Duration ttl = Duration.ofSeconds(2, 600_000_000);
        RecordTable.Entry entry = entry(begunAt, ttl);
        Instant expiry = begunAt.plus(ttl);

        assertThat(entry.expiresAt()).isEqualTo(expiry).isEqualTo(Instant.parse("2030-01-01T00:00:03.300000000Z"));
        assertThat(entry.expiredAt(expiry.minusNanos(1))).isFalse();
        assertThat(entry.expiredAt(expiry)).isTrue();
        assertThat(entry.expiredAt(expiry.plusSeconds(1).minusMillis(500))).isTrue();
        assertThat(entry.expiredAt(expiry.minusSeconds(1).plusMillis(500))).isFalse();
    }

    @Test
    void ordersEntriesByExpiryAsTheirInstantsCompare() {
        RecordTable.Entry early = entry(NOW, Duration.ofMillis(1500));
        RecordTable.Entry sameSecondLater = entry(NOW, Duration.ofMillis(1500).plusNanos(1));
        RecordTable.Entry nextSecond = entry(NOW, Duration.ofMillis(2100));
        RecordTable.Entry same = entry(NOW.minusSeconds(1), Duration.ofMillis(2500));

        assertThat(early.compareExpiry(sameSecondLater)).isNegative();
        assertThat(sameSecondLater.compareExpiry(early)).isPositive();
        assertThat(sameSecondLater.compareExpiry(nextSecond)).isNegative();
        assertThat(nextSecond.compareExpiry(early)).isPositive();
        assertThat(early.compareExpiry(same)).isZero();
    }

    private RecordTable.Entry entry(Instant begunAt, Duration ttl) {
        return new RecordTable.Entry(new RecordTable.Slot(record.key()), record, AttemptToken.random(), begunAt, ttl,
                LEASE);
    }

    @Test
    void refusesAnExpiryBeyondTheInstantsAsInstantPlusDoes() {
        Instant nearTheEnd = Instant.MAX.minusSeconds(1);

        assertThatThrownBy(() -> nearTheEnd.plus(TTL)).isInstanceOf(DateTimeException.class);
        assertThatThrownBy(() -> entry(nearTheEnd, TTL)).isInstanceOf(DateTimeException.class);
        assertThat(entry(Instant.MAX.minus(TTL), TTL).expiresAt()).isEqualTo(Instant.MAX);
    }

    @Test
    void refusesAnEntryUnderAnotherKeysSlot() {
        RecordTable.Slot other = new RecordTable.Slot(projecting(freshRunId(), "call_2").key());

        assertThatIllegalArgumentException()
                .isThrownBy(() -> new RecordTable.Entry(other, record, AttemptToken.random(), NOW, TTL, LEASE))
                .withMessage("the slot is another key's");
    }

    @Test
    void aCompletedEntryDroppedLaterGivesBackItsFinalSize() {
        Room room = new Room(10, Long.MAX_VALUE, 10);
        RecordTable table = new RecordTable(room);
        RecordTable.Entry entry = begun(table, room);

        Either<StoreFailure, CanonicalRecord.Ready> completed = table.complete(entry, ready, () -> { });
        long heldWhenComplete = room.heldBytes();
        table.dropIfExpired(entry, EXPIRED);

        assertThat(completed).isEqualTo(Either.right(ready));
        assertThat(heldWhenComplete).isEqualTo(ready.byteSize());
        assertThat(entry.record()).isSameAs(ready);
        assertThat(room.heldBytes()).isZero();
        assertThat(table.size()).isZero();
    }

    @Test
    void aCompletionWhoseEntryIsDroppedWhileItWaitsForRoomIsRefusedAsExpiredAndGivesBackNothingTwice() {
        // Room for the PROJECTING record only: the completion's growth does not fit until something is dropped,
        // and the reclaim it runs then is the sweep dropping this very entry.
        Room room = new Room(10, record.byteSize(), 10);
        RecordTable table = new RecordTable(room);
        RecordTable.Entry entry = begun(table, room);

        Either<StoreFailure, CanonicalRecord.Ready> completed =
                table.complete(entry, ready, () -> table.dropIfExpired(entry, EXPIRED));

        assertThat(completed).isEqualTo(Either.left(StoreFailure.refused(Refusal.EXPIRED)));
        assertThat(entry.record()).isSameAs(record);
        assertThat(room.heldBytes()).isZero();
        assertThat(table.size()).isZero();
        // A second drop of the same entry, as a late sweep would make, gives back nothing more.
        table.dropIfExpired(entry, EXPIRED);
        assertThat(room.heldBytes()).isZero();
        assertThat(room.admit(record.byteSize())).as("the room holds exactly one record again").isTrue();
        assertThat(room.admit(1)).isFalse();
    }

    @Test
    void anEntryNotYetExpiredStaysWithItsRoom() {
        Room room = new Room(10, Long.MAX_VALUE, 10);
        RecordTable table = new RecordTable(room);
        RecordTable.Entry entry = begun(table, room);

        table.dropIfExpired(entry, EXPIRED.minusNanos(1));

        assertThat(table.size()).isEqualTo(1);
        assertThat(room.heldBytes()).isEqualTo(record.byteSize());
    }
}
