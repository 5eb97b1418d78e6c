package lab.exactlyonce.share;

import java.util.Optional;

/**
 * One shared source, as stored: its content-addressed id, the snippet whose editor it opens in (none: the first
 * demo's) and the code. Nothing about who shared it.
 */
record Share(String id, Optional<String> snippet, String source) {
  Share {
    snippet = snippet == null ? Optional.empty() : snippet;
  }

  String url() {
    return "/s/" + id;
  }
}
