package lab.exactlyonce;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a browser test (or its class): the test opens the contexts it needs itself (a phone's screen, one without
 * JavaScript), so {@link BrowserTest} makes no base context and page for it, and {@code page} stays null until the test
 * calls {@link BrowserTest#reopen}. A page's renderer costs this machine kind about a second of CPU to start, spent for
 * nothing when the test never looks at it.
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
public @interface OwnContexts {}
