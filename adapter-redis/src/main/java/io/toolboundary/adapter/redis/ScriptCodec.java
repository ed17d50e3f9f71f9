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
 * How the store's script arguments travel: a record, encoded once by {@link RecordCodec}, as its bytes;
 * every other argument as its text, written in UTF-8 straight into a buffer of the client's allocator, with
 * no copy on the heap, as the client writes a text argument of a command it is given. Replies are read as
 * UTF-8 text, as {@link StringCodec} reads them.
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
