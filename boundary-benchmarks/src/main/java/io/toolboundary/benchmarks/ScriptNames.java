package io.toolboundary.benchmarks;

import io.toolboundary.adapter.redis.RedisCanonicalInvocationStoreFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Names for captured commands: an {@code EVALSHA} is named by the script resource of the Redis adapter
 * whose SHA-1 it carries (when the adapter sends a script as it ships it), any other command by its name
 * and the option words it was sent with ({@code SET NX PX}).
 */
final class ScriptNames {

    private static final String FOLDER = "io/toolboundary/adapter/redis/";

    private ScriptNames() {
    }

    /** SHA-1 (lower-case hex) of every {@code .lua} resource of the adapter, to its file name. */
    static Map<String, String> bySha() {
        Map<String, String> names = new LinkedHashMap<>();
        try {
            Path location = Path.of(RedisCanonicalInvocationStoreFactory.class.getProtectionDomain().getCodeSource()
                    .getLocation().toURI());
            List<String> files = new ArrayList<>();
            if (Files.isDirectory(location)) {
                try (Stream<Path> paths = Files.list(location.resolve(FOLDER))) {
                    paths.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".lua")).forEach(files::add);
                }
            } else {
                try (JarFile jar = new JarFile(location.toFile())) {
                    jar.stream().map(JarEntry::getName)
                            .filter(name -> name.startsWith(FOLDER) && name.endsWith(".lua"))
                            .forEach(name -> files.add(name.substring(FOLDER.length())));
                }
            }
            for (String file : files) {
                try (InputStream in = ScriptNames.class.getResourceAsStream("/" + FOLDER + file)) {
                    if (in != null) {
                        names.put(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(in.readAllBytes())), file);
                    }
                }
            }
        } catch (IOException | URISyntaxException | NoSuchAlgorithmException | RuntimeException failure) {
            // without names, scripts are labelled by their digest
        }
        return names;
    }

    /** {@code EVALSHA begin.lua}, {@code SET XX KEEPTTL}, ... */
    static String label(List<String> command, Map<String, String> scripts) {
        String name = command.get(0).toUpperCase();
        if (name.equals("EVALSHA") && command.size() > 1) {
            String sha = command.get(1).toLowerCase();
            return name + " " + scripts.getOrDefault(sha, sha.substring(0, Math.min(8, sha.length())));
        }
        StringBuilder label = new StringBuilder(name);
        for (String part : command.subList(Math.min(3, command.size()), command.size())) {
            if (part.matches("[A-Za-z]{2,8}") && part.equals(part.toUpperCase())) {
                label.append(' ').append(part);
            }
        }
        return label.toString();
    }
}
