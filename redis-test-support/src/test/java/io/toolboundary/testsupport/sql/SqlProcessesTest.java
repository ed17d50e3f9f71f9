package io.toolboundary.testsupport.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

class SqlProcessesTest {

    @Test
    void missingBinariesFailUnderCiAndAbortOtherwise() {
        Class<? extends Throwable> expected = SqlProcesses.onCi() ? IllegalStateException.class : TestAbortedException.class;

        assertThatThrownBy(() -> SqlProcesses.unavailable("A probe server", "probe-server is not on the PATH", "probe-package"))
                .isInstanceOf(expected)
                .hasMessageContaining("A probe server cannot run on this machine: probe-server is not on the PATH")
                .hasMessageContaining("Install probe-package");
        assertThat(SqlProcesses.onCi()).isEqualTo("true".equalsIgnoreCase(System.getenv("CI")));
    }

    @Test
    void bothServersCanRunOnThisMachineUnderCi() {
        if (SqlProcesses.onCi()) {
            assertThat(MariaDbServer.unavailableReason()).isEmpty();
            assertThat(PostgresServer.unavailableReason()).isEmpty();
        }
    }
}
