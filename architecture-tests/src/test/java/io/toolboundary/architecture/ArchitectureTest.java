package io.toolboundary.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith;
import static com.tngtech.archunit.core.domain.JavaModifier.PROTECTED;
import static com.tngtech.archunit.core.domain.JavaModifier.PUBLIC;
import static com.tngtech.archunit.core.domain.properties.HasModifiers.Predicates.modifier;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.Slice;
import java.time.InstantSource;
import java.util.Calendar;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The dependency and design rules of the project, checked on the production classes of every
 * module. Test classes are left out, so the classes that break these rules on purpose (see
 * {@link RulesCatchBadClassesTest}) never reach this analysis. An empty rule fails: every rule
 * must match real classes.
 */
@AnalyzeClasses(packages = "io.toolboundary", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    static final String PROJECT = "io.toolboundary..";
    static final String DOMAIN = "io.toolboundary.domain..";
    static final String APPLICATION = "io.toolboundary.application..";
    static final String ADAPTERS = "io.toolboundary.adapter..";
    static final String REDIS_ADAPTER = "io.toolboundary.adapter.redis..";
    static final String TESTKIT = "io.toolboundary.testkit..";
    /** Both test kits for store authors: the store TCK and the reliability TCK. */
    static final String STORE_TCK = "io.toolboundary.tck..";
    static final String DEMO = "io.toolboundary.demo..";
    /** The operator's command line: like the demo, a program that chooses and builds a store. */
    static final String CLI = "io.toolboundary.cli..";
    /** Framework integrations: LangChain4j, Spring AI, Spring AI Alibaba, Micrometer, MCP. */
    static final String[] INTEGRATIONS = {"io.toolboundary.langchain4j..", "io.toolboundary.springai..",
        "io.toolboundary.springaialibaba..", "io.toolboundary.micrometer..", "io.toolboundary.mcp.."};
    /** The MCP integration, the one package that talks to MCP servers. */
    static final String MCP_INTEGRATION = "io.toolboundary.mcp..";
    /** The MCP Java SDK. */
    static final String MCP_SDK = "io.modelcontextprotocol..";
    /** The Spring Boot auto-configuration, the one integration package that chooses and builds a store. */
    static final String SPRING_AUTOCONFIGURE = "io.toolboundary.springai.autoconfigure..";
    /** The Spring AI Alibaba auto-configuration, which builds on the Spring AI one instead of repeating it. */
    static final String ALIBABA_AUTOCONFIGURE = "io.toolboundary.springaialibaba.autoconfigure..";

    /** Redisson and the Redis client libraries it could be swapped for. */
    static final String[] REDIS_CLIENTS = {"org.redisson..", "io.lettuce..", "redis.clients.."};

    /** Libraries and frameworks a domain value must never be tied to. */
    static final String[] FRAMEWORKS = {
        "com.fasterxml.jackson..", "org.redisson..", "io.lettuce..", "redis.clients..", "io.netty..",
        "org.springframework..", "jakarta..", "javax..", "org.slf4j..", "io.micrometer..",
        "dev.langchain4j..", "reactor..", "io.reactivex..", "org.junit..", "org.assertj..",
        "org.testcontainers..", "io.modelcontextprotocol..", "tools.jackson.."
    };

    @ArchTest
    static final ArchRule domain_depends_only_on_java_vavr_and_itself =
            classes().that().resideInAPackage(DOMAIN)
                    .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.vavr..", DOMAIN)
                    .because("the domain is plain values and rules: no I/O, no JSON library, no framework");

    @ArchTest
    static final ArchRule application_depends_only_on_java_vavr_jackson_the_domain_and_itself =
            classes().that().resideInAPackage(APPLICATION)
                    .should().onlyDependOnClassesThat().resideInAnyPackage(
                            "java..", "io.vavr..", "com.fasterxml.jackson.core..", "com.fasterxml.jackson.databind..",
                            DOMAIN, APPLICATION)
                    .because("the use case drives ports; stores, tools and projectors are plugged in from outside");

    @ArchTest
    static final ArchRule only_the_tool_request_reads_json_with_jackson =
            noClasses().that().resideInAPackage(APPLICATION).and().doNotHaveFullyQualifiedName(
                            "io.toolboundary.application.ToolRequest")
                    .should().dependOnClassesThat().resideInAPackage("com.fasterxml.jackson..")
                    .because("the boundary checks and fingerprints arguments with its own one-pass parser;"
                            + " Jackson is only the parsed tree a tool asks its request for");


    @ArchTest
    static final ArchRule only_the_redis_adapter_uses_redisson_or_a_redis_client =
            noClasses().that().resideInAPackage(PROJECT).and().resideOutsideOfPackages(REDIS_ADAPTER, SPRING_AUTOCONFIGURE)
                    .should().dependOnClassesThat().resideInAnyPackage(REDIS_CLIENTS)
                    .because("Redis is one adapter behind the store port; nothing else may name its client,"
                            + " except the Spring Boot auto-configuration, which hands the application's client to the factory");

    @ArchTest
    static final ArchRule no_public_signature_exposes_a_redis_type_except_a_factory_of_the_redis_adapter =
            members().that(modifier(PUBLIC).or(modifier(PROTECTED)).as("are public or protected"))
                    .and().areDeclaredInClassesThat().arePublic()
                    .and().areDeclaredInClassesThat().resideInAPackage(PROJECT)
                    .and().areDeclaredInClassesThat(not(aFactoryOfTheRedisAdapter()))
                    .should(notExposeATypeFrom(REDIS_CLIENTS))
                    .because("callers build the Redis store through its factory and then see only the store port;"
                            + " a Redisson type anywhere else in the API would pin every user to Redisson");

    @ArchTest
    static final ArchRule top_level_packages_are_free_of_cycles =
            slices().matching("io.toolboundary.(*)..").namingSlices("$1")
                    .should().beFreeOfCycles()
                    .because("the modules form a graph from the domain outwards; a cycle would make them one module");

    @ArchTest
    static final ArchRule packages_are_free_of_cycles =
            slices().matching("io.toolboundary.(**)").namingSlices("$1")
                    .should().beFreeOfCycles()
                    .because("a package that needs another package that needs it back cannot be understood alone");

    @ArchTest
    static final ArchRule domain_fields_are_final =
            fields().that().areDeclaredInClassesThat().resideInAPackage(DOMAIN)
                    .should().beFinal()
                    .because("domain objects are immutable values");

    @ArchTest
    static final ArchRule adapters_never_depend_on_each_other =
            slices().matching("io.toolboundary.adapter.(*)..").namingSlices("adapter $1")
                    .should().notDependOnEachOther()
                    .because("each store stands alone and is replaceable without touching another");

    @ArchTest
    static final ArchRule nothing_but_the_adapters_and_the_demo_depends_on_an_adapter =
            noClasses().that().resideInAPackage(PROJECT).and().resideOutsideOfPackages(ADAPTERS, DEMO, CLI, SPRING_AUTOCONFIGURE)
                    .should().dependOnClassesThat().resideInAPackage(ADAPTERS)
                    .because("the domain, the application, the testkit and the integrations see a store only through its port"
                            + " (the demo and the CLI are programs that build one)");

    @ArchTest
    static final ArchRule integrations_depend_on_the_application_and_their_framework_only =
            noClasses().that().resideInAnyPackage(INTEGRATIONS)
                    .should().dependOnClassesThat().resideInAnyPackage("io.toolboundary.testkit..", "io.toolboundary.demo..")
                    .orShould().dependOnClassesThat(adapterInternals())
                    .because("an integration plugs a framework into ToolBoundary; it reaches a store only through"
                            + " an adapter's public factory, never its internals");

    @ArchTest
    static final ArchRule integrations_never_depend_on_each_other =
            slices().matching("io.toolboundary.(*)..").that(integrationSlices()).should().notDependOnEachOther()
                    .ignoreDependency(resideInAPackage(ALIBABA_AUTOCONFIGURE), resideInAPackage(SPRING_AUTOCONFIGURE))
                    .because("each integration is an optional module a user adds alone; the one exception is the"
                            + " Spring AI Alibaba auto-configuration, which reuses the Spring AI starter's store,"
                            + " properties and boundary rather than repeating them");

    @ArchTest
    static final ArchRule only_the_mcp_integration_uses_the_mcp_sdk =
            noClasses().that().resideInAPackage(PROJECT).and().resideOutsideOfPackage(MCP_INTEGRATION)
                    .should().dependOnClassesThat().resideInAPackage(MCP_SDK)
                    .because("MCP servers are reached through one optional module; the boundary, the stores and the other"
                            + " integrations must work without the MCP SDK on the class path");

    @ArchTest
    static final ArchRule testkit_depends_only_on_application_domain_java_vavr_junit_and_assertj =
            classes().that().resideInAPackage(TESTKIT)
                    .should().onlyDependOnClassesThat().resideInAnyPackage(
                            "java..", "io.vavr..", "org.junit..", "org.opentest4j..", "org.assertj..",
                            DOMAIN, APPLICATION, TESTKIT)
                    .because("projector and harness teams put the testkit on their test classpath;"
                            + " it must not drag in an adapter, a Redis client, Testcontainers or a JSON binding library");

    @ArchTest
    static final ArchRule store_tck_depends_only_on_testkit_application_domain_java_vavr_junit_and_assertj =
            classes().that().resideInAPackage(STORE_TCK)
                    .should().onlyDependOnClassesThat().resideInAnyPackage(
                            "java..", "io.vavr..", "org.junit..", "org.opentest4j..", "org.assertj..",
                            DOMAIN, APPLICATION, TESTKIT, STORE_TCK)
                    .because("store adapter authors run the suites against their own store; the suites must not"
                            + " bring an adapter, a Redis client or a container engine of their own");

    @ArchTest
    static final ArchRule domain_never_reads_the_clock =
            noClasses().that().resideInAPackage(DOMAIN)
                    .should().accessTargetWhere(readsTheClock())
                    .because("time is passed into the domain, so every rule about time is deterministic and testable");

    @ArchTest
    static final ArchRule domain_carries_no_jackson_annotation_and_no_framework_type =
            noClasses().that().resideInAPackage(DOMAIN)
                    .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                    .because("records are encoded at the adapter edge; the domain must not know any encoding or framework");

    @ArchTest
    static final ArchRule ports_are_not_named_port =
            noClasses().that().resideInAPackage(APPLICATION).and().areInterfaces()
                    .should().haveSimpleNameEndingWith("Port")
                    .because("ports are named by what they are in the domain's words (CanonicalInvocationStore, Projector)");

    private ArchitectureTest() {
    }

    private static DescribedPredicate<Slice> integrationSlices() {
        Set<String> integrations = Set.of("langchain4j", "springai", "springaialibaba", "micrometer", "mcp");
        return DescribedPredicate.describe("are integrations", slice -> integrations.contains(slice.getNamePart(1)));
    }

    private static DescribedPredicate<JavaClass> adapterInternals() {
        return resideInAPackage(ADAPTERS).and(resideInAPackage("..internal..").or(not(modifier(PUBLIC))))
                .as("internals of an adapter (package-private or in an internal package)");
    }

    private static DescribedPredicate<JavaClass> aFactoryOfTheRedisAdapter() {
        return resideInAPackage(REDIS_ADAPTER).and(simpleNameEndingWith("Factory"))
                .as("a class of " + REDIS_ADAPTER + " whose simple name ends with 'Factory'");
    }

    /**
     * A member exposes a type when the type appears anywhere in its signature: a field's type, a
     * parameter, the return type, a thrown exception or a type parameter bound, including generic
     * type arguments and array components.
     */
    private static ArchCondition<JavaMember> notExposeATypeFrom(String... packages) {
        DescribedPredicate<JavaClass> forbidden = resideInAnyPackage(packages);
        return new ArchCondition<>("not expose a type from " + String.join(", ", packages) + " in its signature") {
            @Override
            public void check(JavaMember member, ConditionEvents events) {
                Set<JavaClass> exposed = new LinkedHashSet<>();
                for (JavaClass type : signatureTypes(member)) {
                    JavaClass base = type.getBaseComponentType();
                    if (forbidden.test(base)) {
                        exposed.add(base);
                    }
                }
                for (JavaClass type : exposed) {
                    events.add(SimpleConditionEvent.violated(member,
                            member.getDescription() + " exposes " + type.getName() + " in "
                                    + member.getSourceCodeLocation()));
                }
            }
        };
    }

    private static Set<JavaClass> signatureTypes(JavaMember member) {
        Set<JavaClass> types = new LinkedHashSet<>();
        if (member instanceof JavaField field) {
            types.addAll(field.getType().getAllInvolvedRawTypes());
        }
        if (member instanceof JavaCodeUnit codeUnit) {
            types.addAll(codeUnit.getReturnType().getAllInvolvedRawTypes());
            for (JavaType parameter : codeUnit.getParameterTypes()) {
                types.addAll(parameter.getAllInvolvedRawTypes());
            }
            types.addAll(codeUnit.getThrowsClause().getTypes());
            for (JavaType typeParameter : codeUnit.getTypeParameters()) {
                types.addAll(typeParameter.getAllInvolvedRawTypes());
            }
        }
        return types;
    }

    /**
     * Any call or method reference that reads the current time: {@code now(..)} of a java.time
     * type, the system clock factories and reads of a {@link java.time.Clock} or
     * {@link InstantSource}, {@code System.currentTimeMillis()}, {@code System.nanoTime()},
     * {@code new Date()} and {@code Calendar.getInstance(..)}.
     */
    private static DescribedPredicate<JavaAccess<?>> readsTheClock() {
        return new DescribedPredicate<>("reads the clock") {
            @Override
            public boolean test(JavaAccess<?> access) {
                AccessTarget target = access.getTarget();
                JavaClass owner = target.getOwner();
                String name = target.getName();
                if (owner.getPackageName().equals("java.time") && name.equals("now")) {
                    return true;
                }
                if (owner.isAssignableTo(InstantSource.class)) {
                    return Set.of("system", "systemUTC", "systemDefaultZone", "tick", "tickMillis",
                            "tickSeconds", "tickMinutes", "instant", "millis").contains(name);
                }
                if (owner.isEquivalentTo(System.class)) {
                    return name.equals("currentTimeMillis") || name.equals("nanoTime");
                }
                if (owner.isEquivalentTo(Date.class)) {
                    return name.equals(JavaConstructor.CONSTRUCTOR_NAME)
                            && target instanceof AccessTarget.CodeUnitAccessTarget codeUnit
                            && codeUnit.getRawParameterTypes().isEmpty();
                }
                return owner.isEquivalentTo(Calendar.class) && name.equals("getInstance");
            }
        };
    }
}
