package lab.exactlyonce.sandbox.engine;

import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.Scanner;
import org.codehaus.janino.Token;
import org.codehaus.janino.TokenType;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

/**
 * A source's tokens as Janino's scanner reads them, without white space and comments, so that checks on names never
 * match inside a comment or a string literal.
 *
 * @param tokens the tokens read, up to the first lexical error if there is one
 * @param complete whether the whole source scanned (false: a lexical error, which the compiler will name)
 */
record SourceTokens(List<Token> tokens, boolean complete) {
  static SourceTokens of(String source) {
    List<Token> tokens = new ArrayList<>();
    try {
      Scanner scanner = new Scanner(null, new StringReader(source));
      for (Token t = scanner.produce(); t.type != TokenType.END_OF_INPUT; t = scanner.produce()) {
        if (t.type == TokenType.WHITE_SPACE || t.type == TokenType.C_PLUS_PLUS_STYLE_COMMENT
            || t.type == TokenType.C_STYLE_COMMENT) {
          continue;
        }
        tokens.add(t);
      }
      return new SourceTokens(List.copyOf(tokens), true);
    } catch (CompileException | IOException | RuntimeException e) {
      return new SourceTokens(List.copyOf(tokens), false);
    }
  }
}
