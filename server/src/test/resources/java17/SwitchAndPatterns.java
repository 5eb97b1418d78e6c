import java.util.*;

public class Main {
  enum Day { MON, TUE, SAT, SUN }

  sealed interface Shape permits Circle, Square, Rect {
  }

  record Circle(double r) implements Shape {
  }

  record Square(double side) implements Shape {
  }

  static final class Rect implements Shape {
    final double w;
    final double h;

    Rect(double w, double h) {
      this.w = w;
      this.h = h;
    }
  }

  static double area(Shape s) {
    if (s instanceof Circle c) return Math.PI * c.r() * c.r();
    if (s instanceof Square sq && sq.side() > 0) return sq.side() * sq.side();
    if (s instanceof Rect r) return r.w * r.h;
    return 0;
  }

  static String kind(Day d) {
    return switch (d) {
      case SAT, SUN -> "weekend";
      default -> {
        String s = "week" + "day";
        yield s;
      }
    };
  }

  static int letters(String word) {
    switch (word) {
      case "one" -> {
        return 3;
      }
      case "three" -> {
        return 5;
      }
      default -> {
        return -1;
      }
    }
  }

  public static void main(String[] args) {
    for (Day d : Day.values()) System.out.print(kind(d) + " ");
    System.out.println();
    System.out.println(letters("one") + " " + letters("three") + " " + letters("x"));
    List<Shape> shapes = List.of(new Circle(1), new Square(2), new Rect(2, 3));
    for (Shape s : shapes) System.out.printf("%.3f%n", area(s));
    Object o = 42;
    String described = o instanceof Integer i && i > 40 ? "big " + (i + 1) : "other";
    System.out.println(described);
    int code = switch ("b") {
      case "a": yield 1;
      case "b": yield 2;
      default: yield 0;
    };
    System.out.println(code);
    char grade = 'B';
    System.out.println(switch (grade) { case 'A' -> "top"; case 'B', 'C' -> "fine"; default -> "low"; });
  }
}
