package lab.exactlyonce.lesson;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import lab.exactlyonce.BrowserTest;
import lab.exactlyonce.TestConfig;
import lab.exactlyonce.TestServer;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Gist tab's voice readout, with speech synthesis replaced by a recording stub (or taken away). */
class VoiceBrowserTest extends BrowserTest {
  static final String LESSON = "/lessons/exactly-once";

  /**
   * Records what is spoken; {@code __speech.finish()} ends the current utterance as a real engine would, and with
   * {@code __speech.msPerChar} set each utterance ends by itself after that long per character (on the page's timers,
   * which a test may drive with a fake clock). Cancel reports the current utterance "interrupted" a moment later, as
   * Chromium does; {@code __speech.late} counts those reports not yet delivered.
   */
  static final String STUB = """
      window.__speech = { spoken: [], calls: [], current: null, msPerChar: 0, late: 0 };
      window.__speech.finish = () => { const u = __speech.current; __speech.current = null; u && u.onend && u.onend({}); };
      window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.rate = 1; } };
      Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: {
        speaking: false, paused: false, pending: false,
        speak(u) { __speech.spoken.push({ text: u.text, rate: u.rate }); __speech.current = u; setTimeout(() => u.onstart && u.onstart({}), 0);
                   if (__speech.msPerChar) u.timer = setTimeout(() => __speech.current === u && __speech.finish(), u.text.length * __speech.msPerChar); },
        cancel() { __speech.calls.push('cancel'); const u = __speech.current; __speech.current = null; if (u) clearTimeout(u.timer);
                   if (u && u.onerror) { __speech.late++; setTimeout(() => { u.onerror({ error: 'interrupted' }); __speech.late--; }, 0); } },
        pause() { __speech.calls.push('pause'); },
        resume() { __speech.calls.push('resume'); },
        getVoices() { return []; }, addEventListener() {}, removeEventListener() {}
      }});
      """;

  @Override
  protected TestServer startServer() {
    return TestServer.start(TestConfig.defaults().withLessonsDir(LessonValidationTest.resource("ui-lessons")));
  }

  private Locator button(String name) {
    return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private Object spoken(int i, String field) {
    return page.evaluate("__speech.spoken[" + i + "] && __speech.spoken[" + i + "]." + field);
  }

  private Locator reading() {
    return page.locator(".voice-sentence.is-reading");
  }

  @Test
  void play_reads_the_gist_sentence_by_sentence_and_highlights_the_sentence() {
    page.addInitScript(STUB);
    page.navigate(url(LESSON));
    assertThat(button("Pause")).isDisabled();
    assertThat(button("Stop")).isDisabled();

    button("Play").click();
    assertEquals("Exactly-once never means each record is processed once.", spoken(0, "text"));
    assertThat(reading()).hasText("Exactly-once never means each record is processed once.");
    assertThat(button("Play")).isDisabled();
    assertThat(button("Pause")).isEnabled();
    assertThat(button("Stop")).isEnabled();

    page.evaluate("__speech.finish()");
    assertEquals("After a crash, records are replayed.", spoken(1, "text"));
    assertThat(reading()).hasText("After a crash, records are replayed.");

    page.evaluate("__speech.finish()");
    // A sentence that crosses inline markup is spoken whole and highlighted in each of its pieces.
    assertEquals("It means the effect of each record happens once.", spoken(2, "text"));
    assertThat(reading()).hasCount(3);
    assertThat(reading()).hasText(new String[] {"It means the", "effect", "of each record happens once."});
  }

  @Test
  void pause_resume_stop_and_rate_drive_the_synthesiser() {
    page.addInitScript(STUB);
    page.navigate(url(LESSON));
    button("Play").click();
    page.evaluate("__speech.finish()");
    assertThat(reading()).hasText("After a crash, records are replayed.");

    button("Pause").click();
    assertEquals("cancel", page.evaluate("__speech.calls.at(-1)"));
    assertThat(button("Resume")).isEnabled();
    assertThat(page.locator("[data-voice]")).hasAttribute("data-state", "paused");
    assertEquals(null, page.evaluate("__speech.current"), "nothing is being read while paused");
    button("Resume").click();
    // Resume reads the paused sentence again from its start.
    assertEquals("After a crash, records are replayed.", page.evaluate("__speech.spoken.at(-1).text"));
    assertThat(button("Pause")).isEnabled();

    page.getByLabel("Rate").selectOption("1.5");
    // The sentence being read restarts at the new rate.
    assertEquals("After a crash, records are replayed.", page.evaluate("__speech.spoken.at(-1).text"));
    assertEquals(1.5, ((Number) page.evaluate("__speech.spoken.at(-1).rate")).doubleValue());
    assertEquals(4, ((Number) page.evaluate("__speech.spoken.length")).intValue());
    page.evaluate("__speech.finish()");
    assertEquals(1.5, ((Number) page.evaluate("__speech.spoken.at(-1).rate")).doubleValue());

    button("Stop").click();
    assertEquals("cancel", page.evaluate("__speech.calls.at(-1)"));
    assertThat(reading()).hasCount(0);
    assertThat(button("Play")).isEnabled();
    assertThat(button("Pause")).isDisabled();
    assertThat(button("Stop")).isDisabled();
    // A late "interrupted" from the cancelled utterance must change nothing: once it has been delivered, all is as before.
    page.waitForFunction("() => __speech.late === 0");
    assertThat(button("Play")).isEnabled();
    assertEquals(5, ((Number) page.evaluate("__speech.spoken.length")).intValue());
  }

  @Test
  void a_table_is_read_row_by_row_each_cell_with_its_column() {
    page.addInitScript(STUB);
    page.navigate(url(LESSON));
    button("Play").click();
    int guard = 0;
    while (page.evaluate("__speech.current") != null && guard++ < 200) {
      if (String.valueOf(page.evaluate("__speech.current.text")).startsWith("At-least-once:")) break;
      page.evaluate("__speech.finish()");
    }
    assertEquals("At-least-once: mechanism, Process, then commit. Replay from the last commit; on failure, Duplicates; "
        + "cost, Low; acceptable for, Idempotent consumers.", page.evaluate("__speech.current.text"));
    // The row is what is highlighted, and the caption came before it; no cell was read on its own.
    assertThat(reading()).hasCount(1);
    assertThat(reading()).containsText("Idempotent consumers");
    String all = (String) page.evaluate("__speech.spoken.map(s => s.text).join(' | ')");
    Assertions.assertTrue(all.contains("| Delivery guarantees compared |"), all);
    Assertions.assertFalse(all.contains("| On failure |") || all.contains("| Duplicates |"), all);
  }

  @Test
  void leaving_the_gist_tab_or_the_browser_tab_pauses_the_reading() {
    page.addInitScript(STUB);
    page.navigate(url(LESSON));
    button("Play").click();
    page.evaluate("__speech.finish()");
    assertThat(reading()).hasText("After a crash, records are replayed.");

    page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Maps").setExact(true)).click();
    assertThat(page.locator("[data-voice]")).hasAttribute("data-state", "paused");
    assertEquals(null, page.evaluate("__speech.current"), "the engine was told to stop");
    int spoken = ((Number) page.evaluate("__speech.spoken.length")).intValue();

    page.getByRole(AriaRole.TAB, new Page.GetByRoleOptions().setName("Gist").setExact(true)).click();
    assertThat(page.locator(".voice-status")).hasText("Paused: you left the Gist tab.");
    assertEquals(spoken, ((Number) page.evaluate("__speech.spoken.length")).intValue(), "nothing read meanwhile");
    button("Resume").click();
    assertEquals("After a crash, records are replayed.", page.evaluate("__speech.current.text"));

    // The browser tab going to the background pauses too (the page's own visibility event, as a browser sends it).
    page.evaluate("Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });"
        + " document.dispatchEvent(new Event('visibilitychange'))");
    assertThat(page.locator("[data-voice]")).hasAttribute("data-state", "paused");
    assertEquals(null, page.evaluate("__speech.current"));
    assertThat(button("Resume")).isEnabled();
  }

  @Test
  void reading_to_the_end_stops_by_itself() {
    page.addInitScript(STUB);
    page.navigate(url(LESSON));
    button("Play").click();
    int guard = 0;
    while (page.evaluate("__speech.current") != null && guard++ < 200) page.evaluate("__speech.finish()");
    assertThat(button("Play")).isEnabled();
    assertThat(reading()).hasCount(0);
    // Summary, key ideas and the Gist sections were read; nothing from the other tabs.
    String all = (String) page.evaluate("__speech.spoken.map(s => s.text).join(' | ')");
    Assertions.assertTrue(all.contains("A replayable source, state that matches its offsets"), all);
    Assertions.assertTrue(all.contains("Readers see output only after commit"), all);
    Assertions.assertFalse(all.contains("Why does exactly-once to Kafka add latency"), all);
  }

  @Test
  void a_browser_without_voices_is_told_in_words_what_is_missing_and_what_to_do() {
    page.addInitScript(STUB);   // its getVoices() is empty, as in a browser with no text-to-speech voice installed
    page.navigate(url(LESSON));
    button("Play").click();
    assertThat(reading()).hasCount(1);
    page.evaluate("const u = __speech.current; __speech.current = null; u.onerror({ error: 'synthesis-failed' })");
    assertThat(page.locator(".voice-status")).hasText("Voice readout stopped: this browser has no voice to read "
        + "English with. Install a text-to-speech voice (on Linux, the speech-dispatcher and espeak-ng packages; on "
        + "other systems, in the language or speech settings), or open the lesson in another browser.");
    assertThat(page.locator(".voice-status")).not().containsText("synthesis-failed");
    assertThat(button("Play")).isEnabled();
  }

  @Test
  void without_speech_synthesis_the_controls_become_a_notice() {
    page.addInitScript("delete Window.prototype.speechSynthesis; delete window.speechSynthesis;"
        + " delete Window.prototype.SpeechSynthesisUtterance; delete window.SpeechSynthesisUtterance;");
    page.navigate(url(LESSON));
    assertEquals(false, page.evaluate("'speechSynthesis' in window"));
    assertThat(page.locator("[data-voice]")).containsText(
        "Voice readout needs Web Speech Synthesis, which this browser does not provide.");
    assertThat(button("Play")).hasCount(0);
    assertThat(page.getByLabel("Rate")).hasCount(0);
  }
}
