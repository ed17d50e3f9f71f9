package io.toolboundary.springaialibaba;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;

/** Real {@code @Tool} methods that count their executions: a log query whose output holds a credential line. */
public class OpsTools {

    static final String LOG_OUTPUT = "2030-01-01T10:00:01Z INFO checkout: request accepted\n"
            + "2030-01-01T10:00:02Z ERROR checkout: connect db-1 failed password=hunter2\n"
            + "2030-01-01T10:00:03Z ERROR checkout: timeout after 30000 ms\n";

    final AtomicInteger logQueries = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    private volatile CountDownLatch together = new CountDownLatch(0);
    private volatile int failFirst;

    /** Makes the next {@code calls} log queries wait until all of them are running at once (at most 10 s). */
    OpsTools together(int calls) {
        this.together = new CountDownLatch(calls);
        return this;
    }

    /** Makes the first {@code calls} log queries throw. */
    OpsTools failingFirst(int calls) {
        this.failFirst = calls;
        return this;
    }

    @Tool(name = "log_query", description = "Searches the logs of a service")
    public String logQuery(@ToolParam(description = "the service") String service) throws InterruptedException {
        int call = logQueries.incrementAndGet();
        CountDownLatch all = together;
        all.countDown();
        if (!all.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the calls did not run together");
        }
        if (call <= failFirst) {
            failures.incrementAndGet();
            throw new IllegalStateException("db-1 refused: password=hunter2");
        }
        return LOG_OUTPUT;
    }
}
