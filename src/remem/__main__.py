from remem.cli.app import main

main()
