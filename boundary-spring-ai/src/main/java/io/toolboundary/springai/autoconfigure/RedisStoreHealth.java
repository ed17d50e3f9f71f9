package io.toolboundary.springai.autoconfigure;

import static java.util.Objects.requireNonNull;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStore;
import io.toolboundary.adapter.redis.RedisOperatorView;
import io.vavr.control.Either;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redis store's health on both Spring lines: every master answers PING and none may evict records (DOWN
 * under {@code eviction-policy-check=refuse}, a detail under {@code warn}). Details never hold an address, a
 * password or a key.
 */
final class RedisStoreHealth {

    private final RedisOperatorView view;
    private final ToolBoundaryProperties.Redis redis;

    RedisStoreHealth(RedisCanonicalInvocationStore store, ToolBoundaryProperties.Redis redis) {
        this.view = RedisOperatorView.of(requireNonNull(store, "store is null"), store.options().responseTimeout());
        this.redis = requireNonNull(redis, "redis is null");
    }

    /** One check: whether the store is UP, and what it found, in order. */
    record Report(boolean up, Map<String, Object> details) {
    }

    /** {@return the store's health now} */
    Report check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("keyPrefix", redis.getKeyPrefix());
        if (!view.mastersAnswer()) {
            details.put("ping", "a master did not answer");
            return report(false, details);
        }
        details.put("ping", "ok");
        Either<?, List<String>> policies = view.evictionPolicies();
        if (policies.isLeft()) {
            details.put(RedisEvictionPolicies.POLICY, "unreadable");
            details.put("warning",
                    "the masters' " + RedisEvictionPolicies.POLICY + " could not be read (is CONFIG GET allowed?)");
            return report(true, details);
        }
        String policy = RedisEvictionPolicies.weakest(policies.get());
        details.put(RedisEvictionPolicies.POLICY, policy);
        if (RedisEvictionPolicies.NO_EVICTION.equals(policy)) {
            return report(true, details);
        }
        if (redis.getEvictionPolicyCheck() == ToolBoundaryProperties.EvictionPolicyCheck.WARN) {
            details.put("warning", "Redis may evict live canonical records (toolboundary.redis.eviction-policy-check=warn)");
            return report(true, details);
        }
        details.put("reason", "Redis may evict live canonical records (toolboundary.redis.eviction-policy-check=refuse)");
        return report(false, details);
    }

    private static Report report(boolean up, Map<String, Object> details) {
        return new Report(up, Collections.unmodifiableMap(details));
    }
}
