import java.util.*;
import java.util.stream.*;

public class Main {
  public static void main(String[] args) {
    List<String> words = List.of("alpha", "beta", "gamma", "delta", "epsilon", "zeta");
    System.out.println(words.stream().filter(w -> w.length() > 4).map(String::toUpperCase).collect(Collectors.toList()));
    System.out.println(IntStream.rangeClosed(1, 10).filter(i -> i % 2 == 0).sum());
    Map<Integer, Long> byLength = words.stream().collect(Collectors.groupingBy(String::length, TreeMap::new, Collectors.counting()));
    System.out.println(byLength);
    System.out.println(words.stream().sorted(Comparator.reverseOrder()).collect(Collectors.joining(", ", "[", "]")));
    System.out.println(Stream.iterate(1, x -> x * 3).limit(6).map(String::valueOf).collect(Collectors.joining(" ")));
    System.out.println(words.stream().mapToInt(String::length).average().getAsDouble());
    Map<Boolean, List<Integer>> parts = IntStream.range(0, 8).boxed().collect(Collectors.partitioningBy(i -> i > 4));
    System.out.println(parts);
    System.out.println(Arrays.stream(new int[] {5, 3, 9, 1}).map(i -> i * i).max().getAsInt());
    System.out.println(words.stream().reduce("", (a, b) -> a + b.charAt(0)));
  }
}
