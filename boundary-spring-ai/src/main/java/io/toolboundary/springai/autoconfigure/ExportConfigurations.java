package io.toolboundary.springai.autoconfigure;

import io.toolboundary.application.ToolBoundary;
import io.toolboundary.application.spi.CanonicalInvocationStore;
import io.toolboundary.domain.ToolName;
import io.toolboundary.export.AuditSink;
import io.toolboundary.export.JdbcAudit;
import io.toolboundary.export.RawResponsePolicy;
import io.toolboundary.export.RecordExporter;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Export of final records to the application's SQL database, with {@code toolboundary.export.enabled=true};
 * imported in this order (not nested, like {@link StoreConfigurations}). The store is built with its outbox
 * on by {@link StoreConfigurations}; here come a {@link JdbcAudit} on the context's {@link DataSource} (the
 * {@link AuditSink}, and the {@code RecordAudit} to read records back) and a {@link RecordExporter} that
 * {@link RecordExporterLifecycle} runs from context start to stop. {@code boundary-export} is an optional
 * dependency: without it, export enabled stops the start. The exporter's meters are {@code boundary-micrometer}'s
 * ({@code ExportMeters}), which this integration does not name: integrations never depend on each other.
 */
final class ExportConfigurations {

    private static final Log LOG = LogFactory.getLog(ToolBoundaryAutoConfiguration.class);

    private ExportConfigurations() {
    }

    /** Export enabled, but {@code boundary-export} is not on the class path: the application does not start. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "toolboundary.export", name = "enabled", havingValue = "true")
    @ConditionalOnMissingClass("io.toolboundary.export.RecordExporter")
    static class ModuleMissing {

        @Bean
        Object toolBoundaryExportUnavailable() {
            throw new ToolBoundaryStartupException(
                    "toolboundary.export.enabled=true, but io.toolboundary:boundary-export is not on the class path.",
                    "Add io.toolboundary:boundary-export and your database's JDBC driver, or set"
                            + " toolboundary.export.enabled=false.");
        }
    }

    /** The audit database and the exporter. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "toolboundary.export", name = "enabled", havingValue = "true")
    @ConditionalOnClass(name = {"io.toolboundary.export.RecordExporter", "javax.sql.DataSource"})
    static class Exporter {

        /**
         * The audit database on the context's single (or primary) {@link DataSource}; the application creates
         * its table, with the Flyway migrations {@code boundary-export} ships or its own DDL.
         */
        @Bean
        @ConditionalOnMissingBean(AuditSink.class)
        JdbcAudit toolBoundaryAudit(ObjectProvider<DataSource> dataSources) {
            DataSource dataSource = dataSources.getIfUnique(() -> {
                throw new ToolBoundaryStartupException("toolboundary.export.enabled=true, but the context has no"
                        + " single DataSource bean to export records to.",
                        "Add a DataSource (for example spring-boot-starter-jdbc with spring.datasource.url, user and"
                                + " password), mark one of several @Primary, or define your own AuditSink bean; or set"
                                + " toolboundary.export.enabled=false.");
            });
            try {
                return JdbcAudit.of(dataSource);
            } catch (IllegalStateException | IllegalArgumentException refused) {
                throw new ToolBoundaryStartupException("toolboundary.export.enabled=true, but the audit database"
                        + " cannot be used: " + refused.getMessage() + ".",
                        "Export needs MariaDB 10.3+, MySQL 8+ or PostgreSQL 9.5+, reachable at start (JdbcAudit reads"
                                + " its product once), with the table of boundary-export's migrations"
                                + " (classpath:io/toolboundary/export/db/mysql or .../postgresql); or set"
                                + " toolboundary.export.enabled=false.");
            }
        }

        @Bean
        @ConditionalOnMissingBean
        RecordExporter toolBoundaryRecordExporter(CanonicalInvocationStore store, AuditSink sink,
                ToolBoundaryProperties properties, ObjectProvider<ToolBoundary> boundary) {
            ToolBoundaryProperties.Export export = properties.getExport();
            if (store.outbox().isEmpty()) {
                throw new ToolBoundaryStartupException("toolboundary.export.enabled=true, but the"
                        + " CanonicalInvocationStore bean (" + store.getClass().getSimpleName() + ") was built with"
                        + " export off: its outbox() is none, so no record would ever reach the database.",
                        "Build your store with its outbox on: InMemoryCanonicalInvocationStore.custom().outbox(100_000)"
                                + " or, on Redis, RedisStoreOptions.custom().outbox(RedisStoreOptions.Outbox.KEYS); or"
                                + " remove your store bean to use the auto-configured one; or set"
                                + " toolboundary.export.enabled=false.");
            }
            boundary.ifUnique(registered -> checkToolsExist(export.getRawResponsesByTool(), registered.toolNames()));
            RecordExporter.Builder builder = RecordExporter.builder(store, sink)
                    .batchSize(export.getBatchSize())
                    .claimIdle(export.getClaimIdle())
                    .pollInterval(export.getPollInterval())
                    .rawResponses(policy(export.getRawResponses()));
            export.getRawResponsesByTool().forEach((tool, policy) -> builder.rawResponses(new ToolName(tool), policy(policy)));
            if (export.getConsumer() != null) {
                builder.consumer(export.getConsumer());
            }
            RecordExporter exporter = builder.build();
            LOG.info("Tool Boundary export: records of the outbox go to " + sink.getClass().getSimpleName()
                    + " as consumer '" + exporter.consumer() + "', raw responses "
                    + ToolBoundaryPropertiesValidation.lower(export.getRawResponses())
                    + (export.getRawResponsesByTool().isEmpty() ? "" : " " + export.getRawResponsesByTool()));
            return exporter;
        }

        @Bean
        @ConditionalOnMissingBean
        RecordExporterLifecycle toolBoundaryRecordExporterLifecycle(RecordExporter exporter,
                ToolBoundaryProperties properties) {
            return new RecordExporterLifecycle(exporter, properties.getExport().getBatchSize());
        }

        /**
         * A policy of a tool the boundary does not register is a typo, or a name the binder stripped of its
         * ':' (the one character of a tool name a map key keeps only in brackets).
         */
        private static void checkToolsExist(Map<String, String> byTool, Set<ToolName> registered) {
            Set<String> names = registered.stream().map(ToolName::value).collect(Collectors.toCollection(TreeSet::new));
            for (String tool : byTool.keySet()) {
                if (!names.contains(tool)) {
                    throw new ToolBoundaryStartupException("toolboundary.export.raw-responses-by-tool names the tool '"
                            + tool + "', which the boundary does not register (its tools: " + names + ").",
                            "Name a registered tool. Spring drops a ':' from a map key unless the key is in"
                                    + " brackets: toolboundary.export.raw-responses-by-tool.[svc\\:logs]=keep in a"
                                    + " .properties file (the ':' escaped), \"[svc:logs]\": keep under"
                                    + " raw-responses-by-tool in YAML.");
                }
            }
        }

        private static RawResponsePolicy policy(String value) {
            return RawResponsePolicy.valueOf(ToolBoundaryPropertiesValidation.lower(value).toUpperCase(Locale.ROOT));
        }
    }
}
