package io.toolboundary.cli;

import io.toolboundary.export.JdbcAudit;
import java.io.PrintWriter;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import picocli.CommandLine.Option;

/**
 * The options of the audit database: its JDBC URL, user and password. The password comes from
 * {@code TOOLBOUNDARY_JDBC_PASSWORD} or a prompt that never echoes; it is never printed, and a URL is only
 * ever shown {@linkplain #mask(String) masked} (no user information, no {@code password=} value).
 */
public final class Jdbc {

    /** The environment variable the database password is read from. */
    public static final String PASSWORD_VARIABLE = "TOOLBOUNDARY_JDBC_PASSWORD";

    /** {@code scheme://user:password@host}: the user information of a URL's authority. */
    private static final Pattern USER_INFO = Pattern.compile("//[^/?#;@]*@");
    /** A parameter whose value is a secret, in a query ({@code ?password=…&}), MariaDB's {@code (password=…)} or after {@code ;}. */
    private static final Pattern SECRET_PARAMETER = Pattern.compile(
            "(?i)\\b((?:password|pwd|passwd|sslpassword|sslkeypassword|keystorepassword|truststorepassword|"
                    + "keyStorePassword|trustStorePassword|secret|token)=)[^&;)\\s]*");

    @Option(names = "--jdbc-url", paramLabel = "JDBC_URL", required = true,
            description = "the audit database: jdbc:mariadb://host:port/db (MariaDB, MySQL) or "
                    + "jdbc:postgresql://host:port/db; never echoed with its credentials")
    private String url;

    @Option(names = "--jdbc-user", paramLabel = "USER", description = "the database user")
    private String user;

    @Option(names = "--jdbc-password", description = "prompt for the database password (never echoed); "
            + "else it is read from " + PASSWORD_VARIABLE)
    private boolean promptPassword;

    @Option(names = "--jdbc-timeout", paramLabel = "DURATION", defaultValue = "PT10S",
            description = "the longest a database connection may take to open (default: ${DEFAULT-VALUE})")
    private Duration timeout;

    /** Creates the options; picocli fills them. */
    public Jdbc() {
    }

    /** {@return the URL as it may be shown: user information and secret parameters masked} */
    String maskedUrl() {
        return mask(url);
    }

    /**
     * {@return {@code text} with every URL's user information and every secret parameter's value replaced by
     * {@code ***}}
     *
     * @param text a JDBC URL, or a message that may hold one
     */
    static String mask(String text) {
        if (text == null) {
            return "";
        }
        String masked = USER_INFO.matcher(text).replaceAll("//***@");
        return SECRET_PARAMETER.matcher(masked).replaceAll("$1***");
    }

    /**
     * A data source over {@link DriverManager}: a new connection each time, no pool. Checks at once that a
     * driver on the class path takes the URL, and reads the password (environment or prompt).
     *
     * @throws IllegalArgumentException when no driver takes the URL, or {@code --jdbc-password} has no console
     */
    DataSource dataSource() {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("--jdbc-url is empty");
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--jdbc-timeout must be positive");
        }
        try {
            DriverManager.getDriver(url);
        } catch (SQLException noDriver) {
            throw new IllegalArgumentException("no JDBC driver takes --jdbc-url " + maskedUrl()
                    + " (this jar has MariaDB's, jdbc:mariadb:, and PostgreSQL's, jdbc:postgresql:)");
        }
        return new DriverManagerDataSource(url, user, password().orElse(null),
                (int) Math.max(1, (timeout.toMillis() + 999) / 1000));
    }

    /**
     * The audit over {@link #dataSource()}, which connects once to read the database's product.
     *
     * @throws Connection.UnreachableException when no connection can be had (its SQLSTATE, masked)
     * @throws IllegalArgumentException when the database is not MariaDB, MySQL 8 or PostgreSQL
     */
    JdbcAudit audit() {
        DataSource dataSource = dataSource();
        try {
            return JdbcAudit.of(dataSource);
        } catch (IllegalStateException unreachable) {
            throw new Connection.UnreachableException("the database at " + maskedUrl() + " cannot be reached ("
                    + mask(unreachable.getMessage()) + ")");
        }
    }

    private Optional<String> password() {
        if (promptPassword) {
            char[] typed = Connection.Environment.console().read("Database password: ")
                    .orElseThrow(() -> new IllegalArgumentException("--jdbc-password needs a console to read from"));
            return Optional.of(new String(typed));
        }
        return Optional.ofNullable(Connection.Environment.env().get(PASSWORD_VARIABLE)).filter(value -> !value.isEmpty());
    }

    /**
     * A {@link DataSource} that opens each connection with {@link DriverManager}, with the user and password
     * given; enough for one exporter thread or one read, which hold a connection at a time.
     */
    static final class DriverManagerDataSource implements DataSource {

        private final String url;
        private final String user;
        private final String password;
        private volatile int loginTimeoutSeconds;

        DriverManagerDataSource(String url, String user, String password, int loginTimeoutSeconds) {
            this.url = url;
            this.user = user;
            this.password = password;
            this.loginTimeoutSeconds = loginTimeoutSeconds;
        }

        @Override
        public java.sql.Connection getConnection() throws SQLException {
            return getConnection(user, password);
        }

        @Override
        public java.sql.Connection getConnection(String username, String secret) throws SQLException {
            Properties properties = new Properties();
            if (username != null) {
                properties.setProperty("user", username);
            }
            if (secret != null) {
                properties.setProperty("password", secret);
            }
            // Both drivers read it when the URL sets none: PostgreSQL's loginTimeout, MariaDB's connectTimeout.
            DriverManager.setLoginTimeout(loginTimeoutSeconds);
            return DriverManager.getConnection(url, properties);
        }

        @Override
        public PrintWriter getLogWriter() {
            return DriverManager.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) {
            DriverManager.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) {
            this.loginTimeoutSeconds = seconds;
        }

        @Override
        public int getLoginTimeout() {
            return loginTimeoutSeconds;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException("no parent logger");
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            if (type.isInstance(this)) {
                return type.cast(this);
            }
            throw new SQLException("not a wrapper of " + type.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return type.isInstance(this);
        }

        @Override
        public String toString() {
            return "DriverManagerDataSource[" + mask(url) + "]";
        }
    }
}
