/** Redis adapter classes that break the signature rule on purpose, and well-behaved ones for contrast. */
package io.toolboundary.adapter.redis.bad;
