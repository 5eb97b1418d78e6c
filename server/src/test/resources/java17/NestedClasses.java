import java.util.*;

public class Main {
  private int counter = 100;

  class Inner {
    int next() {
      return ++counter;
    }
  }

  static class Nested {
    String hello() {
      return "nested";
    }
  }

  interface Greeter {
    String greet(String name);
  }

  public static void main(String[] args) {
    Main outer = new Main();
    Main.Inner inner = outer.new Inner();
    System.out.println(inner.next() + " " + inner.next() + " " + outer.counter);
    System.out.println(new Nested().hello());
    String punctuation = "!";
    Greeter anonymous = new Greeter() {
      private int calls;

      @Override
      public String greet(String name) {
        calls++;
        return "hi " + name + punctuation + " #" + calls;
      }
    };
    System.out.println(anonymous.greet("ann") + " " + anonymous.greet("bob"));
    class Local implements Comparable<Local> {
      final int rank;

      Local(int rank) {
        this.rank = rank;
      }

      @Override
      public int compareTo(Local other) {
        return Integer.compare(other.rank, rank);
      }

      @Override
      public String toString() {
        return "L" + rank + punctuation;
      }
    }
    List<Local> locals = new ArrayList<>(List.of(new Local(1), new Local(3), new Local(2)));
    Collections.sort(locals);
    System.out.println(locals);
    Comparator<String> byLength = new Comparator<String>() {
      @Override
      public int compare(String a, String b) {
        return a.length() - b.length();
      }
    };
    List<String> words = new ArrayList<>(List.of("ccc", "a", "bb"));
    words.sort(byLength);
    System.out.println(words);
  }
}
