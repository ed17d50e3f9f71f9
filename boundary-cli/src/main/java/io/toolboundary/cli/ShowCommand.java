package io.toolboundary.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.toolboundary.adapter.redis.RedisOperatorView;
import io.toolboundary.application.spi.StoreFailure;
import io.toolboundary.domain.CanonicalRecord;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.vavr.control.Either;
import io.vavr.control.Option;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code show RUN ID}: the whole record, raw response included: for the harness, never for an agent. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Shows one whole record, raw response included (for the harness, never for an agent).")
final class ShowCommand implements Callable<Integer> {

    @Mixin
    private Connection connection;

    @Parameters(index = "0", paramLabel = "RUN", description = "the run id")
    private String run;

    @Parameters(index = "1", paramLabel = "ID", description = "the tool_call_id")
    private String id;

    @picocli.CommandLine.Option(names = "--json", description = "one JSON object, for machines")
    private boolean json;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        RunId runId = Ids.run(run);
        ToolCallId callId = Ids.call(id);
        PrintWriter out = spec.commandLine().getOut();
        try (Connection.Opened opened = connection.open()) {
            Either<StoreFailure, Option<CanonicalRecord>> found =
                    opened.store().find(InvocationKey.of(runId, callId), connection.timeout());
            if (found.isLeft()) {
                throw new Connection.UnreachableException("Redis did not answer (" + found.getLeft().code() + ")");
            }
            if (found.get().isEmpty()) {
                spec.commandLine().getErr().println("toolboundary: no record " + callId.value() + " in run " + runId.value());
                return Toolboundary.USAGE;
            }
            CanonicalRecord record = found.get().get();
            RedisOperatorView.KeyFacts facts = Ids.facts(opened, runId, callId);
            Map<String, Object> fields = fields(record, facts);
            if (json) {
                out.println(json(fields));
            } else {
                fields.forEach((name, value) -> out.printf("%-16s %s%n", name + ":", value));
            }
            return Toolboundary.OK;
        }
    }

    private static Map<String, Object> fields(CanonicalRecord record, RedisOperatorView.KeyFacts facts) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("runId", record.key().runId().value());
        fields.put("toolCallId", record.key().toolCallId().value());
        fields.put("tool", record.tool().value());
        fields.put("status", record.status().name());
        record.evidence().forEach(evidence -> fields.put("evidence", evidence.name()));
        record.errorCode().forEach(code -> fields.put("errorCode", code.name()));
        record.failureType().forEach(type -> fields.put("failureType", type));
        record.failureMessage().forEach(message -> fields.put("failureMessage", message));
        fields.put("createdAt", record.createdAt().toString());
        if (record instanceof CanonicalRecord.Final done) {
            fields.put("updatedAt", done.updatedAt().toString());
        }
        fields.put("ttlMillis", facts.ttlMillis());
        Facts.leaseLeft(facts).ifPresent(left -> fields.put("leaseLeftMillis", left.toMillis()));
        fields.put("memoryBytes", facts.memoryBytes());
        fields.put("requestFingerprint", record.requestFingerprint());
        fields.put("arguments", record.arguments());
        record.rawResponse().forEach(raw -> fields.put("rawResponse", raw));
        record.agentResult().forEach(result -> {
            fields.put("content", result.content());
            result.scope().forEach(scope -> fields.put("scope", scope));
        });
        return fields;
    }

    private static String json(Map<String, Object> fields) {
        StringWriter text = new StringWriter();
        try (JsonGenerator generator = new JsonFactory().createGenerator(text)) {
            generator.writeStartObject();
            for (Map.Entry<String, Object> field : fields.entrySet()) {
                if (field.getValue() instanceof Long number) {
                    generator.writeNumberField(field.getKey(), number);
                } else {
                    generator.writeStringField(field.getKey(), String.valueOf(field.getValue()));
                }
            }
            generator.writeEndObject();
        } catch (IOException cannot) {
            throw new UncheckedIOException(cannot);
        }
        return text.toString();
    }
}
