import java.text.ChoiceFormat;
import java.text.DateFormat;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.MessageFormat;
import java.text.NumberFormat;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.Locale;

// java.text's formatting classes, as Rosetta Code's programs use them.
public class Main {
  public static void main(String[] args) throws ParseException {
    DecimalFormatSymbols us = DecimalFormatSymbols.getInstance(Locale.US);
    DecimalFormat money = new DecimalFormat("#,##0.00", us);
    System.out.println(money.format(1234567.891));
    System.out.println(new DecimalFormat("0.###E0", us).format(0.000123456));
    System.out.println(new DecimalFormat("000", us).format(7));
    DecimalFormatSymbols underscores = DecimalFormatSymbols.getInstance(Locale.US);
    underscores.setGroupingSeparator('_');
    System.out.println(new DecimalFormat("#,###", underscores).format(9876543210L));

    NumberFormat number = NumberFormat.getInstance(Locale.US);
    number.setMaximumFractionDigits(3);
    System.out.println(number.format(Math.PI * 1_000_000));
    System.out.println(NumberFormat.getPercentInstance(Locale.US).format(0.256));
    System.out.println(NumberFormat.getIntegerInstance(Locale.US).format(2.5) + " "
        + NumberFormat.getIntegerInstance(Locale.US).format(3.5));
    System.out.println(number.parse("1,234.5").doubleValue() * 2);
    try {
      number.parse("not a number");
    } catch (ParseException e) {
      System.out.println("ParseException at " + e.getErrorOffset());
    }

    SimpleDateFormat iso = new SimpleDateFormat("yyyy-MM-dd HH:mm", Locale.US);
    Date leapDay = iso.parse("2024-02-29 13:45");
    System.out.println(iso.format(leapDay));
    System.out.println(new SimpleDateFormat("EEEE, d MMMM yyyy 'at' h:mm a", Locale.US).format(leapDay));
    System.out.println(DateFormat.getDateInstance(DateFormat.LONG, Locale.US).format(leapDay));

    ChoiceFormat grade = new ChoiceFormat(new double[] {0, 50, 80}, new String[] {"fail", "pass", "merit"});
    MessageFormat files = new MessageFormat("{0,choice,0#no files|1#one file|1<{0,number,integer} files}", Locale.US);
    for (int n : new int[] {0, 1, 42}) {
      System.out.println(files.format(new Object[] {n}) + ", " + grade.format(n * 2));
    }
    System.out.println(MessageFormat.format("{0} has {1,number,integer} items costing {2,number,#.##}", "cart", 3,
        12.3456));
  }
}
