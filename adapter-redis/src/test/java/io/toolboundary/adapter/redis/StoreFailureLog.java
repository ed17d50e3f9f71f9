package io.toolboundary.adapter.redis;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the failures the Redis store logs, by script, failure type and code it reported, while it is
 * open: what a fault suite prints beside its verdict.
 */
final class StoreFailureLog implements AutoCloseable {

    private final Logger storeLog = Logger.getLogger(RedisCanonicalInvocationStore.class.getName());
    private final Map<String, Integer> failures = new ConcurrentSkipListMap<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            Object[] parameters = record.getParameters();
            if (parameters != null && parameters.length == 3) {
                failures.merge(parameters[0] + ":" + parameters[1] + "->" + parameters[2], 1, Integer::sum);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private StoreFailureLog() {
        storeLog.addHandler(capture);
    }

    /** Starts counting. */
    static StoreFailureLog open() {
        return new StoreFailureLog();
    }

    /** The counts so far, as {@code script:failure->code}, sorted. */
    Map<String, Integer> counts() {
        return new TreeMap<>(failures);
    }

    @Override
    public void close() {
        storeLog.removeHandler(capture);
    }
}
