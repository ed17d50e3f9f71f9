package io.toolboundary.adapter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The store's Lua scripts, read once from the resources beside this class. */
final class LuaScripts {

    /** Creates a record and reserves budget; see {@code begin.lua}. */
    static final String BEGIN = load("begin.lua");
    /** Completes a record by token; see {@code complete.lua}. */
    static final String COMPLETE = load("complete.lua");
    /** Ends a record left PROJECTING past its lease; see {@code abandon.lua}. */
    static final String ABANDON = load("abandon.lua");
    /** Reads a record; see {@code find.lua}. */
    static final String FIND = load("find.lua");

    private LuaScripts() {
    }

    private static String load(String name) {
        try (InputStream in = LuaScripts.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read script resource " + name, failure);
        }
    }
}
