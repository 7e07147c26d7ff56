package io.ds2.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README.md is short — the two commands, what ds2 does, a start per use, links — and every relative
 * link in it, in docs/ and in experiments/README.md resolves inside the repository.
 */
class DocsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

  @Test
  void theReadmeIsAtMost12KiB() throws IOException {
    long size = Files.size(ROOT.resolve("README.md"));
    assertTrue(size <= 12 * 1024, "README.md is " + size + " bytes; depth belongs in docs/");
  }

  @Test
  void everyRelativeLinkResolvesInsideTheRepository() throws IOException {
    List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
    pages.add(ROOT.resolve("experiments/README.md"));
    try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path page : pages) {
      Matcher m = LINK.matcher(Files.readString(page));
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^(https?:|mailto:|#).*")) {
          continue;
        }
        links++;
        Path resolved = page.getParent().resolve(target.replaceAll("#.*$", "")).normalize();
        if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
          broken.add(ROOT.relativize(page) + ": " + target);
        }
      }
    }
    assertTrue(links >= 10, "links found: " + links);
    assertEquals(List.of(), broken, "links that do not resolve inside the repository");
  }
}
