/** The production store on Redis and Redis Cluster, through Redisson. */
package io.toolboundary.adapter.redis;
