package io.toolboundary.testsupport.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SqlProcessesTest {

    @Test
    void aMissingServerFailsTheTestWithWhatToInstall() {
        assertThat(SqlProcesses.unavailable("A probe server", "probe-server is not on the PATH", "probe-package"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("A probe server cannot run on this machine: probe-server is not on the PATH")
                .hasMessageContaining("Install probe-package");
    }

    @Test
    void bothServersCanRunOnThisMachine() {
        assertThat(MariaDbServer.unavailableReason()).isEmpty();
        assertThat(PostgresServer.unavailableReason()).isEmpty();
    }
}
