package io.toolboundary.adapter.redis;

import io.vavr.control.Option;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The catalogue of the store's Lua scripts: each entry is a resource beside this class, read once with
 * its SHA-1 for {@code EVALSHA}, the record of its keys and arguments ({@link ScriptArgs}) and the enum
 * of its replies ({@link ScriptReplies}). Every entry is loaded on the masters when the store is made.
 */
final class LuaScripts {

    /** Opens a run; see {@code open.lua}. */
    static final Script<ScriptArgs.Open, ScriptReplies.Open> OPEN =
            load("open.lua", ScriptReplies.Open.class, true);
    /** Creates a record and reserves budget; see {@code begin.lua}. */
    static final Script<ScriptArgs.Begin, ScriptReplies.Begin> BEGIN =
            load("begin.lua", ScriptReplies.Begin.class, true);
    /** Completes a record by token; see {@code complete.lua}. */
    static final Script<ScriptArgs.Complete, ScriptReplies.Complete> COMPLETE =
            load("complete.lua", ScriptReplies.Complete.class, true);
    /** Ends a record left PROJECTING past its lease; see {@code abandon.lua}. */
    static final Script<ScriptArgs.Abandon, ScriptReplies.Abandon> ABANDON =
            load("abandon.lua", ScriptReplies.Abandon.class, true);
    /** Ends an attempt's record by its token; see {@code end.lua}. */
    static final Script<ScriptArgs.End, ScriptReplies.End> END = load("end.lua", ScriptReplies.End.class, true);
    /** Reads a record; see {@code find.lua}. */
    static final Script<ScriptArgs.Find, ScriptReplies.Data> FIND = load("find.lua", ScriptReplies.Data.class, false);
    /** Reads several records of one run; see {@code findall.lua}. */
    static final Script<ScriptArgs.FindAll, ScriptReplies.Data> FIND_ALL =
            load("findall.lua", ScriptReplies.Data.class, false);
    /** How several records of one run may be cited, from their heads; see {@code referencability.lua}. */
    static final Script<ScriptArgs.FindAll, ScriptReplies.Data> REFERENCABILITY =
            load("referencability.lua", ScriptReplies.Data.class, false);
    /** One SCAN step over the keys a pattern matches; see {@code scan.lua}. */
    static final Script<ScriptArgs.Scan, ScriptReplies.Data> SCAN = load("scan.lua", ScriptReplies.Data.class, false);
    /** What an operator needs to know of one key; see {@code inspect.lua}. */
    static final Script<ScriptArgs.Inspect, ScriptReplies.Data> INSPECT =
            load("inspect.lua", ScriptReplies.Data.class, false);
    /** Rewrites a field with its own value, for a replica acknowledgement; see {@code touch.lua}. */
    static final Script<ScriptArgs.Touch, ScriptReplies.Touch> TOUCH =
            load("touch.lua", ScriptReplies.Touch.class, true);
    /** Takes entries of the outbox for one exporter; see {@code poll.lua}. */
    static final Script<ScriptArgs.Poll, ScriptReplies.Data> POLL = load("poll.lua", ScriptReplies.Data.class, true);
    /** Removes exported entries from the outbox and counts the lost ones; see {@code acknowledge.lua}. */
    static final Script<ScriptArgs.Acknowledge, ScriptReplies.Data> ACKNOWLEDGE =
            load("acknowledge.lua", ScriptReplies.Data.class, true);
    /** What the outbox holds; see {@code backlog.lua}. */
    static final Script<ScriptArgs.Backlog, ScriptReplies.Data> BACKLOG =
            load("backlog.lua", ScriptReplies.Data.class, false);
    /** Every script of the store's, as loaded on the masters when the store is made. */
    static final List<Script<?, ?>> ALL = List.of(OPEN, BEGIN, COMPLETE, ABANDON, END, FIND, FIND_ALL, REFERENCABILITY, SCAN, INSPECT, TOUCH,
            POLL, ACKNOWLEDGE, BACKLOG);

    private LuaScripts() {
    }

    /**
     * One script.
     *
     * @param name the resource name, named in the store's log when a script fails
     * @param source the Lua text, sent with {@code SCRIPT LOAD} when a server does not have it
     * @param sha1 the SHA-1 (lowercase hex) of the source's UTF-8 bytes, as {@code EVALSHA} names it
     * @param replies the enum of the replies the script answers by name ({@link ScriptReplies.Data} when
     *     it answers data)
     * @param writes whether the script may write: replicas must acknowledge it and an evicting master
     *     refuses it
     * @param <A> its keys and arguments
     * @param <R> its replies
     */
    record Script<A extends ScriptArgs, R extends Enum<R> & ScriptReplies.Reply>(String name, String source,
            String sha1, Class<R> replies, boolean writes) {

        /** The reply named {@code outcome}, or none when this script answers no such reply. */
        Option<R> reply(String outcome) {
            for (R reply : replies.getEnumConstants()) {
                if (reply.name().equals(outcome)) {
                    return Option.some(reply);
                }
            }
            return Option.none();
        }
    }

    private static <A extends ScriptArgs, R extends Enum<R> & ScriptReplies.Reply> Script<A, R> load(String name,
            Class<R> replies, boolean writes) {
        try (InputStream in = LuaScripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            byte[] bytes = in.readAllBytes();
            return new Script<>(name, new String(bytes, StandardCharsets.UTF_8), sha1Hex(bytes), replies, writes);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read script resource " + name, failure);
        }
    }

    /** The SHA-1 of the bytes, in lowercase hex: how Redis names a script. */
    private static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException("SHA-1 is required of every Java platform", missing);
        }
    }
}
