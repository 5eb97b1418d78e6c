// Rosetta Code, "Hailstone sequence": the longest sequence below a million. About 130 million loop steps, which
// java finishes in well under a second; the sandbox once stopped it at 50 million steps as an endless loop.
public class Main {
  public static void main(String[] args) {
    int best = 1;
    int bestLength = 1;
    for (int start = 1; start < 1_000_000; start++) {
      long n = start;
      int length = 1;
      while (n != 1) {
        n = (n & 1) == 0 ? n / 2 : 3 * n + 1;
        length++;
      }
      if (length > bestLength) {
        best = start;
        bestLength = length;
      }
    }
    System.out.println("hailstone(27) is the classic example; below 1000000 the longest starts at " + best
        + " with " + bestLength + " elements");
  }
}
