package io.toolboundary.adapter.redis;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.redisson.client.codec.BaseCodec;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.Decoder;
import org.redisson.client.protocol.Encoder;

/**
 * How the store's commands travel: a {@code byte[]} argument is sent as it is, wrapped, never copied (the
 * store encodes each large text to UTF-8 once, itself); any other argument is its text in UTF-8. Replies
 * are read as UTF-8 text, as {@link StringCodec} reads them.
 */
final class ScriptCodec extends BaseCodec {

    /** The one instance; it holds no state. */
    static final ScriptCodec INSTANCE = new ScriptCodec();

    private static final Encoder ENCODER = value -> value instanceof byte[] bytes
            ? Unpooled.wrappedBuffer(bytes)
            : utf8(String.valueOf(value));

    private ScriptCodec() {
    }

    private static ByteBuf utf8(CharSequence text) {
        ByteBuf out = ByteBufAllocator.DEFAULT.buffer(ByteBufUtil.utf8MaxBytes(text));
        ByteBufUtil.writeUtf8(out, text);
        return out;
    }

    @Override
    public Decoder<Object> getValueDecoder() {
        return StringCodec.INSTANCE.getValueDecoder();
    }

    @Override
    public Encoder getValueEncoder() {
        return ENCODER;
    }

    @Override
    public ClassLoader getClassLoader() {
        return ScriptCodec.class.getClassLoader();
    }
}
