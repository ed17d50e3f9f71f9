package io.toolboundary.testsupport.redis;

/** Redis answered a command with an error reply (for example {@code MOVED}, {@code WRONGTYPE}, {@code ERR}). */
public final class RedisErrorReply extends RuntimeException {

    private static final long serialVersionUID = 1L;

    RedisErrorReply(String reply) {
        super(reply);
    }

    /** The error reply's first word, for example {@code MOVED} or {@code ERR}. */
    public String kind() {
        String reply = getMessage();
        int space = reply.indexOf(' ');
        return space < 0 ? reply : reply.substring(0, space);
    }
}
