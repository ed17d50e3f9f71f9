package io.toolboundary.adapter.inmemory;

import static java.util.Objects.requireNonNull;

import java.time.Clock;

/**
 * Builds a store; each setter rejects an invalid value at once, naming the field. Starts from the
 * system UTC clock, the default bound (see {@link InMemoryCanonicalInvocationStore}) and no record cap of the store's own.
 */
public final class InMemoryStoreBuilder {
    Clock clock = Clock.systemUTC();
    long maxRecords = defaultMaxRecords(Runtime.getRuntime().maxMemory());
    long maxBytes = defaultMaxBytes(Runtime.getRuntime().maxMemory());
    long recordCapBytes = Long.MAX_VALUE;
    long outboxCapacity;
    boolean outboxCarriesRecords;

    InMemoryStoreBuilder() {
    }

    /**
     * The clock that expiry follows.
     *
     * @param clock the clock
     * @return this builder
     */
    public InMemoryStoreBuilder clock(Clock clock) {
        this.clock = requireNonNull(clock, "clock is null");
        return this;
    }

    /**
     * The most records held, expired ones not yet reclaimed included; 1 or more.
     *
     * @param records the record bound
     * @return this builder
     */
    public InMemoryStoreBuilder maxRecords(long records) {
        this.maxRecords = positive(records, "maxRecords");
        return this;
    }

    /**
     * The most bytes of records held, as {@code CanonicalRecord.byteSize()} counts them; 1 or more.
     *
     * @param bytes the byte bound
     * @return this builder
     */
    public InMemoryStoreBuilder maxBytes(long bytes) {
        this.maxBytes = positive(bytes, "maxBytes");
        return this;
    }

    /**
     * The store's own hard cap on one record, in UTF-8 bytes; 1 or more. A boundary configured with a
     * larger record limit refuses the store when it is built. None by default.
     *
     * @param bytes the cap on one record
     * @return this builder
     */
    public InMemoryStoreBuilder recordCapBytes(long bytes) {
        this.recordCapBytes = positive(bytes, "recordCapBytes");
        return this;
    }

    /**
     * Turns export on: the store appends each record, as it becomes final, to an outbox of at most
     * {@code capacity} entries ({@code store.outbox()}), which a {@code RecordExporter} reads. When the
     * outbox is full, the oldest entry is dropped and counted as lost; no call ever waits for an exporter.
     * Off by default.
     *
     * @param capacity the most entries held; 1 or more
     * @return this builder
     */
    public InMemoryStoreBuilder outbox(long capacity) {
        this.outboxCapacity = positive(capacity, "outbox capacity");
        return this;
    }

    /**
     * Whether each outbox entry holds the whole final record, so that an exporter reaches it even after
     * the record's TTL ended, at the cost of holding it for as long as the entry waits; by default an entry
     * holds the record's key, and the exporter reads the record from the store.
     *
     * @param carry whether entries carry whole records
     * @return this builder
     */
    public InMemoryStoreBuilder outboxCarriesRecords(boolean carry) {
        this.outboxCarriesRecords = carry;
        return this;
    }

    /** {@return the store} */
    public InMemoryCanonicalInvocationStore build() {
        return InMemoryCanonicalInvocationStore.of(this);
    }

    private static long positive(long value, String field) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }

    /** The default {@code maxBytes} for a JVM whose maximum heap is {@code maxHeap}: a quarter of it, at most 256 MiB. */
    static long defaultMaxBytes(long maxHeap) {
        return Math.max(1, Math.min(InMemoryCanonicalInvocationStore.DEFAULT_MAX_BYTES, maxHeap / 4));
    }

    /** The default {@code maxRecords} for a JVM whose maximum heap is {@code maxHeap}: one per 4 KiB, at most 100,000. */
    static long defaultMaxRecords(long maxHeap) {
        return Math.max(1, Math.min(InMemoryCanonicalInvocationStore.DEFAULT_MAX_RECORDS, maxHeap / InMemoryCanonicalInvocationStore.HEAP_BYTES_PER_DEFAULT_RECORD));
    }
}
