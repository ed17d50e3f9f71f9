package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.toolboundary.application.Projector;
import io.toolboundary.domain.internal.Utf8;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadsTest {

    private final ObjectMapper json = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(ints = {128, 129, 1024, 16384, 65536})
    void requestIsOneJsonObjectOfExactlyTheAskedBytes(int bytes) throws Exception {
        String request = Payloads.request(bytes);

        assertThat(Projector.utf8Length(request)).isEqualTo(bytes);
        JsonNode parsed = json.readTree(request);
        assertThat(parsed.isObject()).isTrue();
        assertThat(parsed.path("terms").isArray()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1024, 65536})
    void rawResponseHasExactlyTheAskedBytes(int bytes) {
        assertThat(Projector.utf8Length(Payloads.raw(bytes))).isEqualTo(bytes);
    }

    @Test
    void agentContentHasItsDocumentedSize() {
        assertThat(Projector.utf8Length(Payloads.agentContent())).isEqualTo(Payloads.AGENT_RESULT_BYTES);
    }

    @Test
    void refusesARequestTooSmallForItsStructure() {
        assertThatThrownBy(() -> Payloads.request(127)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("utf8Bytes");
    }
}
