import java.util.ArrayList;
import java.util.List;

// Allocates about 1.5 GB in total, many times a 256 MB heap, while keeping only a few kilobytes live at once: java
// runs it in a small heap, and so must the sandbox, whose memory limit counts what a run keeps, not what it made.
public class Main {
  public static void main(String[] args) {
    long checksum = 0;
    for (int round = 0; round < 3_000; round++) {
      List<String> words = new ArrayList<>();
      for (int i = 0; i < 200; i++) words.add("word" + (round * 200 + i));
      int[] squares = new int[1_000];
      for (int i = 0; i < squares.length; i++) squares[i] = i * i;
      StringBuilder line = new StringBuilder();
      for (String word : words) line.append(word).append(' ');
      checksum += line.length() + squares[round % squares.length] + new long[60_000].length;
    }
    System.out.println("checksum " + checksum);
  }
}
