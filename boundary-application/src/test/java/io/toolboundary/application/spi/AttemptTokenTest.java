package io.toolboundary.application.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AttemptTokenTest {

    @Test
    void randomTokensAreValidAndShareOnlyTheProcessPrefix() {
        AttemptToken first = AttemptToken.random();
        AttemptToken second = AttemptToken.random();

        assertThat(first.value()).matches("[0-9a-f]{20}-[0-9]{1,19}");
        assertThat(second).isNotEqualTo(first);
        assertThat(second.value()).startsWith(first.value().substring(0, 21));
    }

    @Test
    void noTwoThreadsGetTheSameToken() throws InterruptedException {
        int threads = 8;
        int perThread = 20_000;
        Set<AttemptToken> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> racers = IntStream.range(0, threads).mapToObj(i -> new Thread(() -> {
            try {
                start.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int n = 0; n < perThread; n++) {
                seen.add(AttemptToken.random());
            }
        })).toList();
        racers.forEach(Thread::start);
        start.countDown();
        for (Thread racer : racers) {
            racer.join();
        }

        assertThat(seen).hasSize(threads * perThread);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "under_score", "é", "colon:"})
    void refusesValuesOutsideTheAlphabet(String value) {
        assertThatIllegalArgumentException().isThrownBy(() -> new AttemptToken(value))
                .withMessage("value must be 1 to 64 characters of [A-Za-z0-9-]");
    }

    @Test
    void acceptsExactlyTheAlphabetAmongEveryCharacter() {
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String value = "a" + (char) c + "9";
            boolean inAlphabet = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-';
            if (inAlphabet) {
                assertThat(new AttemptToken(value).value()).as("U+%04X", c).isEqualTo(value);
            } else {
                assertThatIllegalArgumentException().as("U+%04X", c).isThrownBy(() -> new AttemptToken(value));
            }
        }
    }

    @Test
    void acceptsSixtyFourCharactersAndRefusesSixtyFive() {
        assertThat(new AttemptToken("a".repeat(64)).value()).hasSize(64);
        assertThatIllegalArgumentException().isThrownBy(() -> new AttemptToken("a".repeat(65)));
    }

    @Test
    void refusesNull() {
        assertThatNullPointerException().isThrownBy(() -> new AttemptToken(null)).withMessage("value is null");
    }
}
