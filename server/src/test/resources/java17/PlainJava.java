public class Main {
  static abstract class Animal {
    abstract String sound();

    String speak() {
      return getClass().getSimpleName() + " says " + sound();
    }
  }

  static class Dog extends Animal {
    String sound() {
      return "woof";
    }
  }

  static class Puppy extends Dog {
    @Override
    String sound() {
      return super.sound() + "!";
    }
  }

  static int calls;

  static int fin() {
    try {
      throw new IllegalStateException("x");
    } catch (IllegalStateException e) {
      calls++;
      return calls;
    } finally {
      calls += 10;
    }
  }

  public static void main(String[] args) {
    Animal[] animals = {new Dog(), new Puppy()};
    for (Animal a : animals) System.out.println(a.speak());
    int[][] grid = new int[3][4];
    for (int i = 0; i < grid.length; i++) for (int j = 0; j < grid[i].length; j++) grid[i][j] = i * j;
    System.out.println(java.util.Arrays.deepToString(grid));
    String s = "two";
    switch (s) {
      case "one":
        System.out.println(1);
        break;
      case "two":
        System.out.println(2);
        break;
      default:
        System.out.println(0);
    }
    System.out.println(fin() + " " + calls);
    long fact = 1;
    for (int i = 2; i <= 20; i++) fact *= i;
    System.out.println(fact + " " + (fact % 1000) + " " + Math.floorMod(-7, 3) + " " + (-7 % 3));
    StringBuilder sb = new StringBuilder("abc");
    System.out.println(sb.reverse() + " " + "x".repeat(3) + " " + String.join("-", "a", "b"));
  }
}
