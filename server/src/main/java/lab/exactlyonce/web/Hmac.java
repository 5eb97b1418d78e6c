package lab.exactlyonce.web;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;

/** HMAC-SHA256 of a text under a key: what signs the learner cookie and the instructor's session. */
public final class Hmac {
  private final SecretKeySpec key;

  public Hmac(byte[] secret) {
    this.key = new SecretKeySpec(secret, "HmacSHA256");
  }

  public byte[] of(String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
