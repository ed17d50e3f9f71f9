package io.toolboundary.adapter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** The store's Lua scripts, read once from the resources beside this class, each with its SHA-1 for EVALSHA. */
final class LuaScripts {

    /** Opens a run; see {@code open.lua}. */
    static final Script OPEN = load("open.lua");
    /** Creates a record and reserves budget; see {@code begin.lua}. */
    static final Script BEGIN = load("begin.lua");
    /** Completes a record by token; see {@code complete.lua}. */
    static final Script COMPLETE = load("complete.lua");
    /** Ends a record left PROJECTING past its lease; see {@code abandon.lua}. */
    static final Script ABANDON = load("abandon.lua");
    /** Ends an attempt's record by its token; see {@code end.lua}. */
    static final Script END = load("end.lua");
    /** Reads a record; see {@code find.lua}. */
    static final Script FIND = load("find.lua");
    /** One SCAN step over a run's record keys; see {@code scan.lua}. */
    static final Script SCAN = load("scan.lua");
    /** One SCAN step over a node's keys, for operators; see {@code scankeys.lua}. */
    static final Script SCAN_KEYS = load("scankeys.lua");
    /** What an operator needs to know of one key; see {@code inspect.lua}. */
    static final Script INSPECT = load("inspect.lua");
    /** Every script of the store's, as loaded on the masters when the store is made. */
    static final List<Script> ALL = List.of(OPEN, BEGIN, COMPLETE, ABANDON, END, FIND, SCAN, SCAN_KEYS, INSPECT);

    private LuaScripts() {
    }

    /**
     * One script.
     *
     * @param name the resource name, named in the store's log when a script fails
     * @param source the Lua text, sent with {@code SCRIPT LOAD} when a server does not have it
     * @param sha1 the SHA-1 (lowercase hex) of the source's UTF-8 bytes, as {@code EVALSHA} names it
     */
    record Script(String name, String source, String sha1) {
    }

    static Script load(String name) {
        try (InputStream in = LuaScripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            byte[] bytes = in.readAllBytes();
            return new Script(name, new String(bytes, StandardCharsets.UTF_8), sha1Hex(bytes));
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
