import java.util.*;

public class Main {
  record Point(int x, int y) {
    Point {
      if (x < 0) throw new IllegalArgumentException("x < 0: " + x);
    }

    Point scaled(int k) {
      return new Point(x * k, y * k);
    }

    static Point origin() {
      return new Point(0, 0);
    }
  }

  record Named<T>(String name, T value) {
  }

  public static void main(String[] args) {
    Point p = new Point(2, 3);
    System.out.println(p + " " + p.scaled(2) + " " + Point.origin());
    System.out.println(p.equals(new Point(2, 3)) + " " + p.equals(Point.origin()) + " " + (p.hashCode() == new Point(2, 3).hashCode()));
    Set<Point> set = new HashSet<>(List.of(p, new Point(2, 3), Point.origin()));
    System.out.println(set.size());
    System.out.println(new Named<>("answer", 42) + " " + new Named<>("list", List.of(1, 2)).value().size());
    try {
      new Point(-1, 0);
    } catch (IllegalArgumentException e) {
      System.out.println("refused: " + e.getMessage());
    }
  }
}
