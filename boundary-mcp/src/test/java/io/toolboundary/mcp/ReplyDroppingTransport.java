package io.toolboundary.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * A client transport that loses replies: once armed with {@link #dropNextToolCallReplies}, it sends the next
 * {@code tools/call} requests to the server as usual and throws away the server's responses to them, so that the
 * server has run the call and the client times out. Everything else passes through the real transport.
 */
final class ReplyDroppingTransport implements McpClientTransport {

    private final McpClientTransport delegate;
    private final AtomicInteger toDrop = new AtomicInteger();
    private final Set<String> droppedIds = ConcurrentHashMap.newKeySet();
    private final AtomicInteger dropped = new AtomicInteger();

    ReplyDroppingTransport(McpClientTransport delegate) {
        this.delegate = delegate;
    }

    /** Loses the replies to the next {@code count} {@code tools/call} requests. */
    void dropNextToolCallReplies(int count) {
        toDrop.set(count);
    }

    /** {@return how many replies were lost so far} */
    int dropped() {
        return dropped.get();
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return delegate.connect(incoming -> handler.apply(incoming.filter(message -> !lost(message))));
    }

    private boolean lost(JSONRPCMessage message) {
        if (message instanceof JSONRPCResponse response && droppedIds.remove(String.valueOf(response.id()))) {
            dropped.incrementAndGet();
            return true;
        }
        return false;
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        if (message instanceof JSONRPCRequest request && "tools/call".equals(request.method())
                && toDrop.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0) {
            droppedIds.add(String.valueOf(request.id()));
        }
        return delegate.sendMessage(message);
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        delegate.setExceptionHandler(handler);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return delegate.unmarshalFrom(data, typeRef);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
