public class Main {
  public static void main(String[] args) {
    int found = -1;
    outer:
    for (int i = 0; i < 10; i++) {
      for (int j = 0; j < 10; j++) {
        if (i * j == 42) {
          found = i * 10 + j;
          break outer;
        }
        if (j > i) continue outer;
      }
    }
    System.out.println("found " + found);
    int count = 0;
    loop:
    while (true) {
      count++;
      switch (count) {
        case 5:
          break loop;
        default:
          continue loop;
      }
    }
    System.out.println("count " + count);
    assert count == 0 : "assertions are on";
    System.out.println("assertions are off");
    char c = 'a';
    c += 2;
    byte b = (byte) 200;
    System.out.println(c + " " + (c + 1) + " " + b + " " + (char) (c + 1) + 1.5f + 'x' + 2L);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 3; i++) sb.append(i).append(',');
    System.out.println(sb + " " + Integer.toBinaryString(42) + " " + Long.MAX_VALUE / 3 + " " + (0.1 + 0.2));
    Integer boxedA = 127;
    Integer boxedB = 127;
    Integer bigA = 1000;
    Integer bigB = 1000;
    System.out.println((boxedA == boxedB) + " " + (bigA == bigB) + " " + bigA.equals(bigB));
  }
}
