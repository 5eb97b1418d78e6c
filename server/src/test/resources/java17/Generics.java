import java.util.*;
import java.util.function.*;

public class Main {
  static class Box<T extends Comparable<T>> {
    private final List<T> items = new ArrayList<>();

    void add(T item) {
      items.add(item);
    }

    T max() {
      T best = items.get(0);
      for (T t : items) if (t.compareTo(best) > 0) best = t;
      return best;
    }
  }

  static <K, V extends Comparable<V>> K argMax(Map<K, V> map) {
    K best = null;
    V value = null;
    for (Map.Entry<K, V> e : map.entrySet()) {
      if (value == null || e.getValue().compareTo(value) > 0) {
        best = e.getKey();
        value = e.getValue();
      }
    }
    return best;
  }

  static double sum(List<? extends Number> numbers) {
    double total = 0;
    for (Number n : numbers) total += n.doubleValue();
    return total;
  }

  static void describe(Object o) {
    System.out.println("object");
  }

  static void describe(String s) {
    System.out.println("string " + s);
  }

  public static void main(String[] args) {
    Box<String> box = new Box<>();
    box.add("kiwi");
    box.add("apple");
    box.add("mango");
    System.out.println(box.max());
    Map<String, Integer> scores = new LinkedHashMap<>();
    scores.put("ann", 3);
    scores.put("bob", 7);
    scores.put("cy", 5);
    System.out.println(argMax(scores));
    System.out.println(sum(List.of(1, 2.5, 3L)));
    List<String> names = new ArrayList<>(List.of("zed"));
    describe(names.get(0));
    List<char[]> chars = new ArrayList<>();
    chars.add(new char[] {'h', 'i'});
    System.out.println(chars.get(0));
    int first = scores.get("ann");
    BinaryOperator<Integer> plus = Integer::sum;
    System.out.println(first + plus.apply(1, 2));
    Map<String, List<Integer>> multi = new TreeMap<>();
    multi.computeIfAbsent("x", k -> new ArrayList<>()).add(1);
    multi.computeIfAbsent("x", k -> new ArrayList<>()).add(2);
    System.out.println(multi);
  }
}
