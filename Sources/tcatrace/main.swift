print("tcatrace")
