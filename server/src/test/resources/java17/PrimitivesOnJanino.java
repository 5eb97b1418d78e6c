public class Main {
  static int calls;

  static int next() {
    return ++calls;
  }

  static long mix(long a, int b) {
    return a * 31 + b;
  }

  public static void main(String[] args) {
    char c = 'a';
    c += 1;
    c++;
    byte b = 10;
    b *= 30;
    short s = (short) 40000;
    int overflow = Integer.MAX_VALUE + 1;
    long big = Integer.MAX_VALUE * 2L;
    System.out.println(c + " " + (c + 1) + " " + (char) (c + 1) + " " + b + " " + s + " " + overflow + " " + big);
    System.out.println(true ? 1 : 'a');
    System.out.println(false ? 1 : 'a');
    System.out.println(false ? 1.0 : 'a');
    System.out.println("" + 'x' + 'y' + ('x' + 'y') + 1 + 2 + (1 + 2) + null + 1.0f + 0.1 + 1e10 + 100.0 / 3);
    System.out.println(-7 / 2 + " " + -7 % 2 + " " + (7 >> 1));
    System.out.println((-7 >> 1) + " " + (-7 >>> 28) + " " + (1 << 33) + " " + (1L << 33) + " " + (5 & 3 | 8 ^ 2));
    int i = 0;
    i = i++ + ++i;
    int j = 5;
    j += j++ * 2;
    System.out.println(i + " " + j + " " + next() + next() * next());
    double d = 0.1 + 0.2;
    float f = 1.1f;
    System.out.println(d + " " + (float) d + " " + f * 3 + " " + (int) 3.99 + " " + (int) -3.99 + " " + Math.round(-2.5)
        + " " + (long) 1e19 + " " + (int) Double.NaN + " " + 1.0 / 0 + " " + (0.0 == -0.0));
    System.out.println((Integer.valueOf(128) == Integer.valueOf(128)) + " " + (Integer.valueOf(127) == Integer.valueOf(127))
        + " " + Integer.valueOf(128).equals(128) + " " + (Long.valueOf(127L) == 127L) + " " + mix(c, b));
    boolean t = true;
    boolean u = false;
    System.out.println((t | u) + " " + (t ^ t) + " " + (!t & u) + " " + ((Object) c instanceof Character));
    System.out.println(new StringBuilder().append(c).append(1).append('1' + 1).append((char) ('1' + 1)).append(1.5f)
        .append(true).append((Object) null));
    int x = 10;
    x >>= 1;
    x ^= 3;
    x %= 4;
    System.out.println(x + " " + Integer.MIN_VALUE / -1 + " " + Math.abs(Integer.MIN_VALUE) + " " + Long.toHexString(-1L));
  }
}
