// Id: counter-demo
// Title: A counter
// Summary: Counts to a limit.
// Expect: count=3
// Expect: done
public class CounterDemo {
    static final int LIMIT = 3;

    public static void main(String[] args) {
        int count = 0;
        for (int i = 0; i < LIMIT; i++) count++;
        System.out.println("count=" + count);
        System.out.println("done");
    }
}
