from remem.cli import main

main()
