package io.toolboundary.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallCaptureTest {

    @Test
    void readsTheArgumentsOfAMonitorLine() {
        String line = " \"EVALSHA\" \"ab12\" \"1\" \"k{r}:call:x\" \"va\\\"l\\nue\\x01\\\\\" \"\" \"\\xc3\\xa9\"";

        assertThat(CallCapture.parse(line)).containsExactly("EVALSHA", "ab12", "1", "k{r}:call:x", "va\"l\nue\u0001\\", "",
                "é");
    }

    @Test
    void labelsCommandsByScriptAndOptions() {
        Map<String, String> scripts = Map.of("ab12", "begin.lua");

        assertThat(ScriptNames.label(List.of("EVALSHA", "AB12", "1", "k"), scripts)).isEqualTo("EVALSHA begin.lua");
        assertThat(ScriptNames.label(List.of("EVALSHA", "ffffffff99", "1", "k"), scripts)).isEqualTo("EVALSHA ffffffff");
        assertThat(ScriptNames.label(List.of("SET", "k", "PENDING\n{}", "NX", "PX", "600000"), scripts))
                .isEqualTo("SET NX PX");
        assertThat(ScriptNames.label(List.of("SET", "k", "DONE", "XX", "KEEPTTL"), scripts)).isEqualTo("SET XX KEEPTTL");
    }

    @Test
    void reducesARepliesToWhatTellsSuccessFromRefusal() {
        assertThat(Replay.shape(List.of("CREATED", "calls", 7L))).isEqualTo("[CREATED");
        assertThat(Replay.shape("OK")).isEqualTo("OK");
        assertThat(Replay.shape(null)).isEqualTo("nil");
        assertThat(Replay.shape(new Resp.Error("NOSCRIPT No matching script"))).isEqualTo("ERR NOSCRIPT");
        assertThat(Replay.id(42)).isEqualTo("c000000000042");
    }
}
