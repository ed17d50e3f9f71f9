package com.example.harness;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import io.toolboundary.adapter.redis.RedisStoreOptions;
import io.toolboundary.application.AccessPolicy;
import io.toolboundary.application.ToolBinding;
import io.toolboundary.application.ToolBoundary;

/** The same harness on Redis: the store owns its client, and closing it lets the program exit. */
public final class RedisHarness {

    public static void main(String[] args) {
        String url = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
        try (RedisCanonicalInvocationStore store =
                RedisCanonicalInvocationStoreFactory.connectStandalone(url, RedisStoreOptions.ofDefaults())) {
            ToolBoundary boundary = ToolBoundary.builder()
                    .store(store)
                    .accessPolicy(AccessPolicy.allowOnly("log-search"))
                    .tool(ToolBinding.readOnly("log-search", LogSearch::run, new LogSearchProjector()))
                    .build();
            FirstHarness.play(boundary, "triage-" + System.currentTimeMillis());
        }
    }
}
