import java.util.*;

public class Main {
  enum Op {
    ADD("+") {
      int apply(int a, int b) {
        return a + b;
      }
    },
    MUL("*") {
      int apply(int a, int b) {
        return a * b;
      }
    };

    final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    abstract int apply(int a, int b);
  }

  interface Shape {
    double area();

    default String describe() {
      return label() + " of area " + area();
    }

    default String label() {
      return "shape";
    }

    static Shape square(double side) {
      return () -> side * side;
    }
  }

  enum Planet implements Shape {
    TINY(1), HUGE(10);

    private final double r;

    Planet(double r) {
      this.r = r;
    }

    public double area() {
      return r * r * 4;
    }

    @Override
    public String label() {
      return "planet " + name().toLowerCase();
    }
  }

  public static void main(String[] args) {
    for (Op op : Op.values()) System.out.println(op + " " + op.symbol + " " + op.apply(6, 7) + " " + op.ordinal());
    System.out.println(Op.valueOf("MUL").apply(3, 3));
    System.out.println(Shape.square(3).describe());
    for (Planet p : Planet.values()) System.out.println(p.describe());
    EnumMap<Op, Integer> uses = new EnumMap<>(Op.class);
    uses.put(Op.MUL, 2);
    System.out.println(uses + " " + EnumSet.allOf(Op.class));
    switch (Op.ADD) {
      case ADD:
        System.out.println("adding");
        break;
      case MUL:
        System.out.println("multiplying");
        break;
    }
  }
}
