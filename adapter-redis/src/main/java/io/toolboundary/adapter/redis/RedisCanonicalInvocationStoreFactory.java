package io.toolboundary.adapter.redis;

import static java.util.Objects.requireNonNull;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.client.RedisAuthRequiredException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisWrongPasswordException;
import org.redisson.config.BaseConfig;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;
import org.redisson.config.ReadMode;
import org.redisson.config.SentinelServersConfig;
import org.redisson.config.SingleServerConfig;

/**
 * Creates {@link RedisCanonicalInvocationStore}s. The only public type of this library that names a
 * Redisson type, in {@link #create(RedissonClient, RedisStoreOptions)}, {@link #create(Config, RedisStoreOptions)}
 * and {@link #evictionPolicies(RedissonClient)}; the {@code connect…} methods take plain URLs,
 * {@code redis://[[user]:password@]host[:port]} or {@code rediss://…}, whose credentials never appear in a
 * message.
 *
 * <p>Every method reads {@code maxmemory-policy} on every master before it returns a store and refuses one
 * that may evict records ({@link IllegalStateException}; a warning with
 * {@link RedisStoreOptions.EvictionPolicyCheck#WARN}); a policy that cannot be read is logged and let
 * through. The clients the {@code connect…} methods build read from masters only, use the options'
 * timeouts and are owned by the store: {@link RedisCanonicalInvocationStore#close()} shuts them down.
 *
 * <p>Options that turn export on ({@link RedisStoreOptions.Builder#outbox(RedisStoreOptions.Outbox)}) are
 * refused for a Redis Cluster, with {@link IllegalArgumentException}, before any connection is made: a
 * record's script cannot append to one stream from every slot.
 */
public final class RedisCanonicalInvocationStoreFactory {

    private static final String CLUSTER_ENABLED = "cluster_enabled";

    private RedisCanonicalInvocationStoreFactory() {
    }

    /**
     * A store on an existing client, which the caller keeps owning: {@link RedisCanonicalInvocationStore#close()}
     * does not shut it down. Neither the client's codec nor its script cache setting matters: the store
     * always uses strings and runs its scripts by SHA.
     *
     * @param client the client to use; the caller keeps owning it and shuts it down
     * @param options the store's settings; their timeouts apply to the store's scripts, but their connect
     *     timeout is not used
     * @return a store on {@code client}
     * @throws IllegalArgumentException when the client is a Redis Cluster client and the options turn export on
     * @throws IllegalStateException when a master may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore create(RedissonClient client, RedisStoreOptions options) {
        requireNonNull(client, "client is null");
        requireNonNull(options, "options is null");
        RedisRecordOutbox.refuseOnCluster(client.getConfig().isClusterConfig(), options);
        EvictionPolicyGuard.check(client, options);
        return new RedisCanonicalInvocationStore(client, false, options);
    }

    /**
     * A store on a new client made from a copy of {@code config}. The store owns that client:
     * {@link RedisCanonicalInvocationStore#close()} shuts it down. The connect timeout of {@code options}
     * is not used (the config's own applies); its response timeout is, for each try of the store's own
     * scripts, as with every store.
     *
     * @param config the Redisson settings, copied before use so later changes to it have no effect
     * @param options the store's settings
     * @return a store owning a new client made from the copy
     * @throws IllegalArgumentException when the config is a Redis Cluster's and the options turn export on
     *     (no client is made)
     * @throws IllegalStateException when a master may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore create(Config config, RedisStoreOptions options) {
        requireNonNull(config, "config is null");
        requireNonNull(options, "options is null");
        RedisRecordOutbox.refuseOnCluster(config.isClusterConfig(), options);
        Config own = new Config(config);
        RedissonClient client = Redisson.create(own);
        try {
            EvictionPolicyGuard.check(client, options);
        } catch (RuntimeException refused) {
            client.shutdown();
            throw refused;
        }
        return new RedisCanonicalInvocationStore(client, true, options);
    }

    /**
     * A store on one standalone Redis server, through a client the store owns.
     *
     * @param redisUrl the server, {@code redis://[[user]:password@]host[:port]} or {@code rediss://…}
     * @param options the store's settings, the timeouts included
     * @return a store owning a new client connected to that server
     * @throws IllegalArgumentException when {@code redisUrl} is not such a URL
     * @throws RedisStoreUnavailableException when the server cannot be reached or used, or is a Redis
     *     Cluster node (use {@link #connectCluster})
     * @throws IllegalStateException when the server may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore connectStandalone(String redisUrl, RedisStoreOptions options) {
        requireNonNull(options, "options is null");
        RedisAddress address = RedisAddress.parse("redisUrl", redisUrl);
        Config config = new Config();
        SingleServerConfig server = config.useSingleServer().setAddress(address.uri());
        settings(config, server, address, options);
        String target = "Redis at " + address.hostAndPort();
        return connect(config, options, target, client -> {
            if (isClusterNode(client)) {
                throw new RedisStoreUnavailableException("cannot use " + target
                        + " as a standalone server: it is a Redis Cluster node (connect to the cluster instead)");
            }
        });
    }

    /**
     * A store on a Redis Cluster, through a client the store owns. One reachable seed is enough: the
     * client learns every master and replica from it, follows slot moves and failovers, and reads from
     * masters only.
     *
     * @param seedUrls one or more of the cluster's nodes, each {@code redis://[[user]:password@]host[:port]}
     *     (or {@code rediss://…}), all with the same credentials
     * @param options the store's settings, the timeouts included
     * @return a store owning a new client connected to the cluster
     * @throws IllegalArgumentException when the list is empty, a URL is not such a URL, the URLs carry
     *     different credentials, or the options turn export on (refused on a cluster, before connecting)
     * @throws RedisStoreUnavailableException when no seed can be reached, a seed is not a cluster node, or
     *     the cluster does not cover every slot
     * @throws IllegalStateException when a master may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore connectCluster(List<String> seedUrls, RedisStoreOptions options) {
        requireNonNull(options, "options is null");
        RedisRecordOutbox.refuseOnCluster(true, options);
        List<RedisAddress> seeds = addresses("seedUrls", seedUrls);
        Config config = new Config();
        ClusterServersConfig cluster = config.useClusterServers().setReadMode(ReadMode.MASTER);
        seeds.forEach(seed -> cluster.addNodeAddress(seed.uri()));
        settings(config, cluster, seeds.get(0), options);
        return connect(config, options, "the Redis Cluster at " + hostsAndPorts(seeds), client -> {
        });
    }

    /**
     * A store on a Redis master found through Redis Sentinel, through a client the store owns; the
     * client follows the sentinels to the new master after a failover and reads from masters only.
     * Credentials in the URLs authenticate to the master, its replicas and the sentinels alike; where the
     * sentinels need other credentials (or none while the master has some), use
     * {@link #create(Config, RedisStoreOptions)} with Redisson's {@code setSentinelUsername} and
     * {@code setSentinelPassword}.
     *
     * @param masterName the name the sentinels monitor the master under
     * @param sentinelUrls one or more sentinels, each {@code redis://[[user]:password@]host[:port]}
     *     (or {@code rediss://…}), all with the same credentials
     * @param options the store's settings, the timeouts included
     * @return a store owning a new client connected to the master the sentinels name
     * @throws IllegalArgumentException when the master name is blank, the list is empty, a URL is not
     *     such a URL, or the URLs carry different credentials
     * @throws RedisStoreUnavailableException when no sentinel can be reached or none knows the master
     * @throws IllegalStateException when the master may evict records and the options say REFUSE
     */
    public static RedisCanonicalInvocationStore connectSentinel(String masterName, List<String> sentinelUrls,
            RedisStoreOptions options) {
        requireNonNull(masterName, "masterName is null");
        requireNonNull(options, "options is null");
        if (masterName.isBlank()) {
            throw new IllegalArgumentException("masterName must not be blank");
        }
        List<RedisAddress> sentinels = addresses("sentinelUrls", sentinelUrls);
        Config config = new Config();
        SentinelServersConfig sentinel = config.useSentinelServers().setMasterName(masterName)
                .setReadMode(ReadMode.MASTER);
        sentinels.forEach(node -> sentinel.addSentinelAddress(node.uri()));
        settings(config, sentinel, sentinels.get(0), options);
        return connect(config, options, "the Redis master '" + masterName + "' through the sentinels at "
                + hostsAndPorts(sentinels), client -> {
        });
    }

    /**
     * The {@code maxmemory-policy} of every master behind {@code client}, as the factory's check reads
     * them: for health checks and operator tools that report the policy in their own words.
     *
     * @param client a client of a standalone server, a cluster, or a master behind sentinels
     * @return one policy per master
     * @throws IllegalStateException when a master does not report its policy
     * @throws org.redisson.client.RedisException when a master cannot be asked ({@code CONFIG} refused,
     *     no connection)
     */
    public static List<String> evictionPolicies(RedissonClient client) {
        return List.copyOf(EvictionPolicyGuard.policies(requireNonNull(client, "client is null")));
    }

    private static RedisCanonicalInvocationStore connect(Config config, RedisStoreOptions options, String target,
            Consumer<RedissonClient> check) {
        RedissonClient client;
        try {
            client = Redisson.create(config);
        } catch (RuntimeException failure) {
            throw new RedisStoreUnavailableException("cannot connect to " + target + ": " + reason(failure, options));
        }
        try {
            check.accept(client);
            EvictionPolicyGuard.check(client, options);
        } catch (RuntimeException refused) {
            client.shutdown();
            throw refused;
        }
        return new RedisCanonicalInvocationStore(client, true, options);
    }

    private static void settings(Config config, BaseConfig<?> servers, RedisAddress credentials,
            RedisStoreOptions options) {
        // The store retries its own scripts within each caller's timeout; the client's retries serve only
        // its start and the factory's checks, so a server that cannot be reached is reported at once.
        servers.setConnectTimeout(Math.toIntExact(options.connectTimeout().toMillis()))
                .setTimeout(Math.toIntExact(options.responseTimeout().toMillis()))
                .setRetryAttempts(1)
                .setRetryDelay(new ConstantDelay(Duration.ofMillis(200)));
        credentials.username().forEach(config::setUsername);
        credentials.password().forEach(config::setPassword);
    }

    private static List<RedisAddress> addresses(String what, List<String> urls) {
        requireNonNull(urls, what + " is null");
        if (urls.isEmpty()) {
            throw new IllegalArgumentException(what + " must name at least one server");
        }
        List<RedisAddress> addresses = new ArrayList<>(urls.size());
        for (String url : urls) {
            RedisAddress address = RedisAddress.parse(what + " element", url);
            if (!addresses.isEmpty() && !addresses.get(0).sameCredentials(address)) {
                throw new IllegalArgumentException(what + " must all carry the same credentials (or none)");
            }
            addresses.add(address);
        }
        return List.copyOf(addresses);
    }

    private static String hostsAndPorts(List<RedisAddress> addresses) {
        return addresses.stream().map(RedisAddress::hostAndPort).collect(Collectors.joining(", "));
    }

    /** True when the server reports {@code cluster_enabled:1}; false when it does not or cannot tell. */
    private static boolean isClusterNode(RedissonClient client) {
        try {
            Map<String, String> info = client.getRedisNodes(RedisNodes.SINGLE).getInstance()
                    .info(RedisNode.InfoSection.CLUSTER);
            return "1".equals(info.get(CLUSTER_ENABLED));
        } catch (RuntimeException cannotTell) {
            return false;
        }
    }

    /** Why a connection failed, in words that carry no text of the failure itself. */
    private static String reason(Throwable failure, RedisStoreOptions options) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
            if (cause instanceof RedisWrongPasswordException || message.contains("wrongpass")
                    || message.contains("invalid password") || message.startsWith("err auth")) {
                return "the server refused the credentials";
            }
            if (cause instanceof RedisAuthRequiredException || message.contains("noauth")) {
                return "the server requires credentials";
            }
            if (message.contains("cluster support disabled")) {
                return "it is not a Redis Cluster node";
            }
            if (cause instanceof UnknownHostException) {
                return "unknown host";
            }
            if (cause instanceof ConnectException) {
                return "connection refused";
            }
            if (cause instanceof SocketTimeoutException || cause instanceof RedisTimeoutException
                    || cause.getClass().getSimpleName().contains("Timeout")) {
                return "no answer within " + options.connectTimeout().toMillis() + " ms";
            }
        }
        return "no connection could be made (" + failure.getClass().getSimpleName() + ")";
    }
}
