import java.util.*;
import java.util.function.*;

public class Main {
  private final String prefix = ">";

  String tag(String s) {
    return prefix + s;
  }

  static int twice(int x) {
    return 2 * x;
  }

  public static void main(String[] args) {
    Function<Integer, Integer> inc = x -> x + 1;
    BiFunction<Integer, Integer, Integer> add = (a, b) -> a + b;
    Supplier<List<String>> fresh = ArrayList::new;
    IntUnaryOperator dbl = Main::twice;
    UnaryOperator<String> upper = String::toUpperCase;
    Function<String, Integer> length = String::length;
    IntFunction<int[]> arrays = int[]::new;
    Main m = new Main();
    Function<String, String> tagger = m::tag;
    int base = 10;
    IntSupplier captured = () -> base + 5;
    System.out.println(inc.apply(1) + " " + add.apply(2, 3) + " " + dbl.applyAsInt(21) + " " + upper.apply("abc"));
    System.out.println(length.apply("four") + " " + arrays.apply(3).length + " " + tagger.apply("x") + " " + captured.getAsInt());
    List<String> list = fresh.get();
    list.add("pear");
    list.add("fig");
    list.add("banana");
    list.sort(Comparator.comparing(String::length).thenComparing(Comparator.reverseOrder()));
    System.out.println(list);
    Runnable r = () -> System.out.println("ran " + inc.andThen(inc).apply(0));
    r.run();
    Function<Integer, Function<Integer, Integer>> curried = a -> b -> a * b;
    System.out.println(curried.apply(6).apply(7));
    Optional<String> first = list.stream().filter(s -> s.startsWith("b")).findFirst();
    System.out.println(first.map(String::length).orElse(-1));
  }
}
